"""The command line (qwk_explained.cli), run in-process, as a subprocess and from a built wheel."""
