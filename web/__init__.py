"""The web view: each battle's page (the map to zoom, unit cards, the log, replay), live, read-only."""
