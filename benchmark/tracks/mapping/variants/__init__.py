"""Task variants of the mapping track: the same transformation with its metamodels renamed or reordered,
or shown by name only, to tell how much of a score survives when the names change (``docs/VARIANTS.md``).

:mod:`.names` the variants and the option that selects them; :mod:`.renaming` a renaming as a value (a map
per metamodel, recorded in every run file and row), its inverse and its checks; :mod:`.rules` how a
variant's renaming is drawn (synonyms from the shared table, neutral ids, a seeded order); :mod:`.apply`
a renaming applied to a metamodel view, a ground truth and a suggestion; :mod:`.export` a variant's tree
written out for a person (``atlbench variant export``).
"""
