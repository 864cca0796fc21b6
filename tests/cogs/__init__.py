"""Tests of the front end's pure parts: action groups, menus and layouts, without Discord."""
