output "queue_url" {
  description = "URL producers send to and consumers receive from."
  value       = aws_sqs_queue.queue.url
}

output "queue_arn" {
  value = aws_sqs_queue.queue.arn
}

output "dead_letter_queue_arn" {
  value = aws_sqs_queue.dlq.arn
}

output "visibility_timeout_seconds" {
  description = "Queue visibility timeout: 6 x 15 s function timeout + 0 s batching window."
  value       = var.visibility_timeout_seconds
}

output "deduplication_id_format" {
  description = "MessageDeduplicationId producers must send, built from these payload fields."
  value       = "{endpointId}-{probeRunId}"
}

output "group_id_format" {
  description = "MessageGroupId producers must send, built from these payload fields."
  value       = "{endpointId}"
}

output "consumer_policy_arn" {
  description = "Least privilege to consume mcp-probe-results.fifo: attach to the execution role of probe-processor, or Lambda cannot read the queue."
  value       = aws_iam_policy.consumer.arn
}
