"""Why an ATL Zoo file is, or is not, a task of the mapping study.

A task is an ATL module that maps one model of a source metamodel to one model of a different target
metamodel, whose two metamodels are found and loaded, whose extracted ground truth has class pairs and
names only classes and features those metamodels define. Each rule below rules a file out, checked in
this order (the first that applies is the file's verdict): a file the official parser rejects cannot be
read as ATL meant it; a library or query maps nothing; several input or output models, or refining mode,
make a task that is not "source metamodel to target metamodel"; an endogenous module asks the model to
match a metamodel with itself; a task needs both metamodel files; a ground truth with no class pair
scores nothing; a ground truth that names what its metamodels lack fails the track's ground-truth check;
and a byte-for-byte copy of an included task would count one transformation twice.
"""

from __future__ import annotations

INCLUDED = "included"
REJECTED = "rejected-by-parser"
LIBRARY_OR_QUERY = "library-or-query"
SEVERAL_MODELS = "several-models"
REFINING = "refining"
ENDOGENOUS = "endogenous"
METAMODEL_NOT_FOUND = "metamodel-not-found"
EMPTY_GROUND_TRUTH = "empty-ground-truth"
METAMODEL_MISMATCH = "metamodel-mismatch"
DUPLICATE = "duplicate"

#: Every verdict, in the order the rules are checked (``included`` first: what passed them all), with
#: the words the printed table and the manifest explain it with.
DESCRIPTIONS: dict[str, str] = {
    INCLUDED: "included: one task folder",
    REJECTED: "the official ATL parser would reject it (a syntax error, or accepted here only leniently)",
    LIBRARY_OR_QUERY: "a library or query module: no rules, nothing to map",
    SEVERAL_MODELS: "several input or output models",
    REFINING: "refining mode (in-place)",
    ENDOGENOUS: "endogenous: the same metamodel in and out",
    METAMODEL_NOT_FOUND: "a metamodel not found, ambiguous or not loadable below its project folder",
    EMPTY_GROUND_TRUTH: "empty ground truth: no class pair to score",
    METAMODEL_MISMATCH: "the ground truth names classes or features its metamodels do not define",
    DUPLICATE: "the same ATL text and metamodels as an included task",
}

ORDER = tuple(DESCRIPTIONS)
