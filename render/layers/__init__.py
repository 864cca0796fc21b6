"""The drawing layers, painted in order: base, features, effects, units, overlays."""
