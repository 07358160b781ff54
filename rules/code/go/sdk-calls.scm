; Calls of the SQS API with the AWS SDK for Go v2:
; `client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{...})`.
; Captures: @call (the call), @operation (the method name), @receiver (the client).
((call_expression
   function: (selector_expression operand: (_) @receiver field: (field_identifier) @operation)) @call
  (#any-of? @operation
    "ReceiveMessage" "SendMessage" "SendMessageBatch" "DeleteMessage" "DeleteMessageBatch"
    "ChangeMessageVisibility" "ChangeMessageVisibilityBatch"))
