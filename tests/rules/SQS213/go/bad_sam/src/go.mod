module example.com/orders

go 1.22

require github.com/aws/aws-lambda-go v1.47.0
