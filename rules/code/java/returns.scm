; A return of what a call returns: if the method called is not read,
; what the handler returns is not known.
; Captures: @returned (the name called).
(return_statement (method_invocation name: (identifier) @returned))
