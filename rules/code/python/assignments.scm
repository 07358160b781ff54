; Names bound to a value: `QUEUE_URL = os.environ["QUEUE_URL"]`,
; `payload = {...}`, `queue_url: str = ...`.
; Captures: @assignment (the binding), @name (the name), @value (its value).
(assignment left: (identifier) @name right: (_) @value) @assignment
