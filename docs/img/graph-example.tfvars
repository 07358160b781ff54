# The fan-in example after a change that raised the function timeout from
# 30 s to 300 s and left the queue's visibility timeout at 180 s (the
# picture in README.md; CONTRIBUTING.md says how to draw it again).
function_timeout = 300
