"""A synthetic ATL module of any size, for the parser's scaling benchmark.

One block holds the constructs real transformations use most (helpers with iterators, ``let``, ``if``,
``iterate``; matched rules with filters, several output elements and many bindings; lazy and called rules;
a ``do`` block); ``scale`` copies of it, with distinct names, make a file about ``scale`` times as large.
Written for this project; it contains nothing from the ATL Zoo.
"""

from __future__ import annotations

__all__ = ["synthetic_module"]

_HEADER = """-- @path Source=/bench/Source.ecore
-- @path Target=/bench/Target.ecore
module Synthetic; -- generated for the parser benchmark
create OUT : Target from IN : Source;
"""

_BLOCK = """
-- Block {n}: helpers
helper context Source!Node{n} def : label{n} : String =
	if self.name.oclIsUndefined() then 'node-{n}'
	else self.name.toUpper() + '--' + self.kind.toString() endif;

helper context Source!Node{n} def : weight{n}(factor : Integer) : Real =
	let base : Real = self.children->select(c | c.active and not c.hidden)->collect(c | c.size)->sum() in
	if base > 0 then base * factor / 2.5 else 0.0 endif;

helper def : allNodes{n} : Sequence(Source!Node{n}) =
	Source!Node{n}.allInstances()->sortedBy(e | e.name)->asSequence();

helper context Source!Node{n} def : path{n} : String =
	self.ancestors->iterate(a; acc : String = '' | acc + '/' + a.name);

-- Block {n}: rules
rule Node{n}ToElement {{
	from
		s : Source!Node{n} (s.active and s.children->notEmpty() or s.kind = #root)
	using {{
		total : Integer = s.children->size();
	}}
	to
		t : Target!Element (
			name <- s.label{n},
			weight <- s.weight{n}(3),
			"from" <- s."from",
			path <- s.path{n},
			count <- total + 1,
			owned <- s.children->collect(c | thisModule.Child{n}(c)),
			tags <- Sequence{{'a', 'b', s.name}}->including(s.kind.toString()),
			info <- Tuple{{key = s.name, value = total}}
		),
		m : Target!Metadata (
			owner <- t,
			created <- thisModule.resolveTemp(s, 't'),
			flags <- Map{{(1, 'one'), (2, 'two')}}
		)
	do {{
		if (total > 10) {{
			t.large <- true;
		}} else if (total = 0) {{
			t.empty <- true;
		}}
		for (c in s.children) {{
			thisModule.log{n}(c.name);
		}}
	}}
}}

lazy rule Child{n} {{
	from
		c : Source!Node{n}
	to
		e : Target!Element (
			name <- c.name,
			parent <- c.refImmediateComposite()
		)
}}

rule log{n}(message : String) {{
	do {{
		message.debug('log');
	}}
}}
"""


def synthetic_module(scale: int) -> str:
    """ATL text of ``scale`` blocks (about 1.6 KB each)."""
    if scale < 1:
        raise ValueError("scale must be at least 1")
    return _HEADER + "".join(_BLOCK.format(n=n) for n in range(1, scale + 1))
