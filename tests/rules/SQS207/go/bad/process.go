package main

import "fmt"

// process does the work a message's body asks for.
func process(body string) error {
	fmt.Println("processing", body)
	return nil
}
