"""Tests of the map renderer."""
