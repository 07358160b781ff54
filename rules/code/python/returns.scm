; A return of what a call returns: if the function called is not read,
; what the handler returns is not known.
; Captures: @returned_from (a return statement: the call it returns,
; awaited or not, and the name that call calls, `f` of `f(...)` or
; `obj.f(...)`, are read from its own fields, `fields::returned_call`: a
; pattern that spells those shapes out costs the query compiler a
; millisecond).
(return_statement) @returned_from
