"""sixtui's benchmarks: `make bench` (python -m benchmarks) prints their figures."""
