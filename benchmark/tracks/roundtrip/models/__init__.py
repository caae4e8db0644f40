"""The models the round-trip track reads and writes: Ecore packages and SQL schemas as values, their canonical
I/O and canonical lines, the type synonyms, the SQL metamodel and the forward mapping Ecore -> SQL."""
