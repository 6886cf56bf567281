"""The engine (qwk_explained.core): parsing, validation, every step, statistics, the fast path."""
