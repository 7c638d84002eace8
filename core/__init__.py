"""The platform layer (docs/contributing.md, "Layers"): what every app stands on."""
