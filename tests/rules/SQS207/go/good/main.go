// A worker that deletes each message once it is processed.
package main

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const jobs = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

func poll(ctx context.Context) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	client := sqs.NewFromConfig(cfg)
	for {
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{
			QueueUrl:            aws.String(jobs),
			WaitTimeSeconds:     20,
			MaxNumberOfMessages: 10,
		})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			if err := process(aws.ToString(m.Body)); err != nil {
				continue
			}
			if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(jobs), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

func main() { _ = poll(context.Background()) }
