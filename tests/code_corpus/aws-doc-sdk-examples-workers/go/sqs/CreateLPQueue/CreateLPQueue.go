// Copyright Amazon.com, Inc. or its affiliates. All Rights Reserved.
// SPDX-License-Identifier: Apache-2.0
// snippet-start:[sqs.go.create_lp_queue]
package main

// snippet-start:[sqs.go.create_lp_queue.imports]
import (
	"flag"
	"fmt"
	"strconv"

	"github.com/aws/aws-sdk-go/aws"
	"github.com/aws/aws-sdk-go/aws/session"
	"github.com/aws/aws-sdk-go/service/sqs"
)

// snippet-end:[sqs.go.create_lp_queue.imports]

// CreateLPQueue creates an Amazon SQS queue with long polling enabled
// Inputs:
//
//	sess is the current session, which provides configuration for the SDK's service clients
//	queueName is the name of the queue
//	waitTime is the wait time, in seconds, for long polling to wait for messages
//
// Output:
//
//	If success, the URL of the queue and nil
//	Otherwise, an empty string and an error from the call to CreateQueue
func CreateLPQueue(sess *session.Session, queueName *string, waitTime *int) (string, error) {
	// snippet-start:[sqs.go.create_lp_queue.call]
	svc := sqs.New(sess)

	result, err := svc.CreateQueue(&sqs.CreateQueueInput{
		QueueName: queueName,
		Attributes: aws.StringMap(map[string]string{
			"ReceiveMessageWaitTimeSeconds": strconv.Itoa(*waitTime),
		}),
	})
	// snippet-end:[sqs.go.create_lp_queue.call]
	if err != nil {
		return "", err
	}

	return *result.QueueUrl, nil
}

func main() {
	// snippet-start:[sqs.go.create_lp_queue.args]
	queue := flag.String("q", "", "The name of the queue")
	waitTime := flag.Int("w", 10, "How long, in seconds, to wait for long polling")
	flag.Parse()

	if *queue == "" {
		fmt.Println("You must supply a queue name (-q QUEUE")
		return
	}

	if *waitTime < 1 {
		*waitTime = 1
	}

	if *waitTime > 20 {
		*waitTime = 20
	}
	// snippet-end:[sqs.go.create_lp_queue.args]

	// Create a session that gets credential values from ~/.aws/credentials
	// and the default region from ~/.aws/config
	// snippet-start:[sqs.go.create_lp_queue.sess]
	sess := session.Must(session.NewSessionWithOptions(session.Options{
		SharedConfigState: session.SharedConfigEnable,
	}))
	// snippet-end:[sqs.go.create_lp_queue.sess]

	url, err := CreateLPQueue(sess, queue, waitTime)
	if err != nil {
		fmt.Println("Got an error creating the long polling queue:")
		fmt.Println(err)
		return
	}

	// snippet-start:[sqs.go.create_lp_queue.url]
	fmt.Println("URL for long polling queue " + *queue + ": " + url)
	// snippet-end:[sqs.go.create_lp_queue.url]
}

// snippet-end:[sqs.go.create_lp_queue]
