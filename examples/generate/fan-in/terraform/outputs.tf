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
  description = "Queue visibility timeout: 6 x 30 s function timeout + 0 s batching window."
  value       = var.visibility_timeout_seconds
}
