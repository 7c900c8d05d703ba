"""Benchmarks: simulator speed, the clue filter, embeddings, agents (`python -m experiments.bench.NAME`)."""
