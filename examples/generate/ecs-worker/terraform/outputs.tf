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
  description = "Queue visibility timeout: 2 x 45 s p99 processing time."
  value       = var.visibility_timeout_seconds
}

output "consumer_policy_arn" {
  description = "Least privilege to consume video-transcode: attach to the worker's role."
  value       = aws_iam_policy.consumer.arn
}

output "heartbeat_interval_seconds" {
  description = "Extend in-flight messages with ChangeMessageVisibility this often (visibility timeout / 3)."
  value       = 30
}

output "receive_max_number_of_messages" {
  value = 10
}

output "receive_wait_time_seconds" {
  value = 20
}

output "http_socket_timeout_seconds" {
  description = "The SDK's socket timeout must outlast the long poll."
  value       = 25
}
