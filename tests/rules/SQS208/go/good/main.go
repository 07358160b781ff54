// A worker whose deletes and visibility changes pass the receipt handle.
package main

import (
	"context"
	"fmt"

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
			MaxNumberOfMessages: 10,
			WaitTimeSeconds:     20,
		})
		if err != nil {
			return err
		}
		for _, m := range out.Messages {
			id := aws.ToString(m.ReceiptHandle)
			if _, err := client.ChangeMessageVisibility(ctx, &sqs.ChangeMessageVisibilityInput{QueueUrl: aws.String(jobs), ReceiptHandle: aws.String(id), VisibilityTimeout: 120}); err != nil {
				return err
			}
			fmt.Println(aws.ToString(m.Body))
			if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: aws.String(jobs), ReceiptHandle: m.ReceiptHandle}); err != nil {
				return err
			}
		}
	}
}

func main() { _ = poll(context.Background()) }
