; What returns batch item failures by itself: the aws-lambda-go response
; type `events.SQSEventResponse`, as a result type or a value built.
; Captures: @utility.
((qualified_type name: (type_identifier) @utility)
  (#eq? @utility "SQSEventResponse"))
