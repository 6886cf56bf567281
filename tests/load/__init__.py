"""The real server under a small classroom of concurrent sessions (bench.load_classroom)."""
