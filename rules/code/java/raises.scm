; Where a handler ends its invocation with an error: a `throw`. Whether it
; is on a record's failure path (a `catch` of the loop over the event's
; records, no `try` around it) is read from the tree (`handler::raises`).
; Captures: @raise.
(throw_statement) @raise
