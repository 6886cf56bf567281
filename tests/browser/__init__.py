"""The real app served by streamlit run, driven by Chromium with Playwright."""
