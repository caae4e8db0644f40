"""The ATL front-end: grammar, lexer, typed AST and printer for the whole ATL language."""
