"""The operations ATL provides itself, and how each kind of call passes source paths on.

An operation call whose name is neither a helper nor a rule of the unit is read as a *standard*
operation: it passes its receiver's paths through (``v.name.toUpper()`` stands for ``name``). A name that
is not in :data:`STANDARD_OPERATIONS` either is reported as an ``unknown-operation`` diagnostic, because
it is most likely a helper from a library that is not at hand (``firstToLower()`` from ``uses strings;``).

The list is the union of the operations documented in the ATL user guide ("ATL data types") and the
native operations of ATL's two virtual machines (the ASM VM's ``nativelib`` classes and EMFVM's
``ExecEnv``), so that every operation a real ATL engine runs without a library is known. It is
deliberately not narrowed by receiver type: the extractor has no metamodel and cannot tell a string from
a collection.
"""

from __future__ import annotations

__all__ = [
    "STANDARD_OPERATIONS",
    "NAVIGATING_OPERATIONS",
    "COLLECTING_OPERATIONS",
    "COLLECTING_ITERATORS",
    "RESOLVE_OPERATIONS",
]

#: OclAny, OclType and model element operations (reflection, typing, debugging, instances).
_OCL_ANY = frozenset(
    """
    oclIsUndefined oclIsKindOf oclIsTypeOf oclAsType oclType toString debug output check
    refGetValue refSetValue refUnsetValue refImmediateComposite refInvokeOperation
    asSequence asSet asBag asOrderedSet asMap
    allInstances allInstancesFrom newInstance newInstanceIn getInstanceById conformsTo getName
    registerHelperAttribute registerWeavingHelper setName setElementType
    """.split()
)

#: ``thisModule`` operations (the ATL module type).
_MODULE = frozenset("resolveTemp".split())

#: String operations.
_STRING = frozenset(
    """
    size concat substring toInteger toReal toBoolean toUpper toLower toSequence trim startsWith endsWith
    indexOf lastIndexOf split replaceAll regexReplaceAll writeTo writeToWithCharset println toCString
    readFrom inject
    """.split()
)

#: Integer, Real and Boolean operations (operators written as calls included: ``23."div"(2)``).
_NUMBER_BOOLEAN = frozenset(
    """
    abs div mod max min floor round toString toBinaryString toHexString longValue
    cos sin tan acos asin atan toDegrees toRadians exp log sqrt
    and or xor not implies
    """.split()
)

#: Collection, Sequence, Set, OrderedSet, Bag, Tuple and Map operations.
_COLLECTION = frozenset(
    """
    size includes excludes count includesAll excludesAll isEmpty notEmpty sum
    union intersection including excluding flatten append prepend insertAt subSequence subOrderedSet
    at first last indexOf symetricDifference symmetricDifference
    get getKeys getValues containsKey containsValue
    """.split()
)

#: Every operation name ATL knows without a library (see the module docstring).
STANDARD_OPERATIONS: frozenset[str] = _OCL_ANY | _MODULE | _STRING | _NUMBER_BOOLEAN | _COLLECTION

#: Standard operations that navigate: ``v.refImmediateComposite()`` reads the pseudo-feature
#: ``refImmediateComposite()`` of ``v``, and further navigation continues from it.
NAVIGATING_OPERATIONS: frozenset[str] = frozenset({"refImmediateComposite"})

#: Standard operations whose result holds their arguments' elements as well as the receiver's:
#: ``v.a->union(v.b)->collect(x | x.c)`` reads ``a.c`` and ``b.c``.
COLLECTING_OPERATIONS: frozenset[str] = frozenset(
    {"union", "including", "append", "prepend", "insertAt", "symetricDifference", "symmetricDifference"}
)

#: Iterators whose result is made of their body's values; every other iterator (``select``, ``reject``,
#: ``any``, ``sortedBy``, ``exists``...) yields its source's.
COLLECTING_ITERATORS: frozenset[str] = frozenset({"collect", "collectNested"})

#: ``thisModule`` operations that resolve source elements to target elements: they read what their
#: arguments read and yield no source path.
RESOLVE_OPERATIONS: frozenset[str] = frozenset({"resolveTemp"})
