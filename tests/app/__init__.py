"""The Streamlit app (qwk_app and pages), driven with AppTest."""
