"""The teaching layer (qwk_explained.teaching): cells, checking, exercises, conventions, theory."""
