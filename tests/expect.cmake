# expect(COND MSG): fail the CLI test script (cmake -P) with MSG unless the
# if()-condition COND, given as one string, holds.  Included by the scripts
# that drive the schedreplay binary (tests/*/cli_*.cmake).
function(expect cond msg)
  separate_arguments(c UNIX_COMMAND "${cond}")
  if(NOT (${c}))
    message(FATAL_ERROR "${msg}")
  endif()
endfunction()

# expect_match(REGEX TEXT MSG): fail with MSG unless TEXT matches REGEX.
function(expect_match re text msg)
  string(REGEX MATCH "${re}" m "${text}")
  if(m STREQUAL "")
    message(FATAL_ERROR "${msg}")
  endif()
endfunction()
