; What returns batch item failures by itself: the aws-lambda-java-events
; response type `SQSBatchResponse`, and Powertools for AWS Lambda's
; `BatchMessageHandler`.
; Captures: @utility.
((type_identifier) @utility
  (#any-of? @utility "SQSBatchResponse" "BatchMessageHandler" "BatchMessageHandlerBuilder"))
((identifier) @utility
  (#any-of? @utility "SQSBatchResponse" "BatchMessageHandlerBuilder"))
