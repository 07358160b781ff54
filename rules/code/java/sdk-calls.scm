; Calls of the SQS API with the AWS SDK for Java (v2 `sqsClient.receiveMessage(request)`,
; with a request built by `ReceiveMessageRequest.builder()...build()` or a
; consumer `r -> r.queueUrl(url)`; v1 `sqs.receiveMessage(new ReceiveMessageRequest(url))`).
; Captures: @call (the call), @operation (the method name), @receiver (the client).
((method_invocation object: (_) @receiver name: (identifier) @operation arguments: (argument_list)) @call
  (#any-of? @operation
    "receiveMessage" "sendMessage" "sendMessageBatch" "deleteMessage" "deleteMessageBatch"
    "changeMessageVisibility" "changeMessageVisibilityBatch"))
