"""Natural-language words for renaming model identifiers: the shared synonym table (``synonyms.txt``, data)
and its reader (:mod:`.synonyms`).

Two studies rename identifiers with it and must draw from the same words: the OCL track's ``rename``
transformation (``docs/OCL.md``) and the mapping track's ``synonym`` variant (``docs/VARIANTS.md``). It lives
here, outside both tracks, because a track imports no other track.
"""
