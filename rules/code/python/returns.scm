; A return of what a call returns: if the function called is not read,
; what the handler returns is not known.
; Captures: @returned_call (the call; the reader takes the name it calls,
; `f` of `f(...)` or `obj.f(...)`, from the call's own fields: a pattern
; that spells that shape out costs the query compiler a millisecond).
(return_statement (call) @returned_call)
(return_statement (await (call) @returned_call))
