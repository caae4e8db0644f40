"""The ATL Zoo as a validation tree: every usable transformation of a local Zoo checkout becomes a task.

``atlbench zoo build ZOO_DIR --into DIR`` runs the four steps of this package, one module each:

- :mod:`~benchmark.tracks.mapping.zoo.survey`: each ``.atl`` file on its own (parsed, extracted, its two
  metamodels found below its project folder the way the track finds them) gets a verdict and a reason;
- :mod:`~benchmark.tracks.mapping.zoo.plan`: across files, byte-for-byte duplicates are set aside and
  every included transformation gets a folder name;
- :mod:`~benchmark.tracks.mapping.zoo.tree`: the task folders are written, idempotently, never touching
  runs filed under them;
- :mod:`~benchmark.tracks.mapping.zoo.manifest`: ``DIR/zoo-manifest.json`` and the printed table list
  every ``.atl`` file with its verdict.

The verdicts and their order are in :mod:`~benchmark.tracks.mapping.zoo.verdicts`. Nothing of the Zoo is
part of this project: the tree is built from the user's copy.
"""
