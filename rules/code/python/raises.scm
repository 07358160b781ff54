; Where a handler ends its invocation with an error: a `raise`. Whether it
; is on a record's failure path (an `except` of the loop over the event's
; records, no `try` around it) is read from the tree (`handler::raises`).
; Captures: @raise.
(raise_statement) @raise
