// A worker that processes each message and never deletes it.
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
		}
	}
}

func main() { _ = poll(context.Background()) }
