// A worker whose heartbeat, set in config.go, extends a message by 30 s every 40 s.
package main

import (
	"context"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
)

const jobs = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs"

func keepHidden(ctx context.Context, client *sqs.Client, handle *string) {
	ticker := time.NewTicker(heartbeatEvery)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			_, _ = client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(jobs), ReceiptHandle: handle, VisibilityTimeout: visibilitySeconds})
		}
	}
}

func poll(ctx context.Context) error {
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		return err
	}
	client := sqs.NewFromConfig(cfg)
	for {
		out, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: aws.String(jobs), MaxNumberOfMessages: 10, WaitTimeSeconds: 20})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			beat, stop := context.WithCancel(ctx)
			go keepHidden(beat, client, m.ReceiptHandle)
			fmt.Println(aws.ToString(m.Body))
			stop()
			if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(jobs), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

func main() { _ = poll(context.Background()) }
