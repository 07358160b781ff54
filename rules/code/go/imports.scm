; Where names come from other files of the code: a Go package is all the
; files of its folder that name it, so only the package is read here.
; Captures: @package (the package's name).
(package_clause (package_identifier) @package)
