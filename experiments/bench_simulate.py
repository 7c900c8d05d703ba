"""`python -m experiments.bench_simulate`: the simulator benchmark under the name issue 12 gives it;
the module is `experiments.bench.simulate` (same options)."""

from experiments.bench.simulate import main

if __name__ == "__main__":
    main()
