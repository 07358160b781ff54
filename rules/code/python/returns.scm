; A return of what a call returns: if the function called is not read,
; what the handler returns is not known.
; Captures: @returned (the name called).
(return_statement (call function: (identifier) @returned))
(return_statement (call function: (attribute attribute: (identifier) @returned)))
(return_statement (await (call function: (identifier) @returned)))
(return_statement (await (call function: (attribute attribute: (identifier) @returned))))
