"""Benchmarks, run from the checkout as modules: ``python -m bench.bench_core``,
``python -m bench.bench_app``, ``python -m bench.load_classroom``; and the checker's fairness,
before and after, on simulated learners (``bench.learners``): ``python -m bench.grading_audit``."""
