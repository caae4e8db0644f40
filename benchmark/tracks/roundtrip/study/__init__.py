"""A round-trip study's data: its base pairs and cases (the bundled manifest or a study's own folder), and
the generator of the bundled data."""
