"""What a learner meets besides the steps: cells, the checker's diagnoses, exercises, the
conventions of other implementations, theory, worked examples and interpretation bands.

Built on :mod:`qwk_explained.core` only; it returns codes and numbers, never sentences (those are
:mod:`qwk_explained.present`'s job).
"""
