; What returns batch item failures by itself: Powertools for AWS Lambda's
; batch utility (`process_partial_response`, `async_process_partial_response`,
; a `BatchProcessor` made in the file, the `@batch_processor` decorator).
; Captures: @utility.
((call function: (identifier) @utility)
  (#any-of? @utility "process_partial_response" "async_process_partial_response"
    "BatchProcessor" "AsyncBatchProcessor" "SqsFifoPartialProcessor"))
((call function: (attribute attribute: (identifier) @utility))
  (#any-of? @utility "process_partial_response" "async_process_partial_response"
    "BatchProcessor" "AsyncBatchProcessor" "SqsFifoPartialProcessor"))
((decorator (call function: (identifier) @utility))
  (#any-of? @utility "batch_processor" "async_batch_processor"))
((decorator (identifier) @utility)
  (#any-of? @utility "batch_processor" "async_batch_processor"))
