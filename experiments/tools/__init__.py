"""Build and fit tools: clue vocabularies, picture cards, the human-data and partner models
(`python -m experiments.tools.NAME`)."""
