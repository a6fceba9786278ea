"""Generic ipywidgets components every game view is built from."""
