# cmake -DHELP2MAN=... -DTUNER=bin/tuner -DCOMMAND=tune -DVERSION=0.1.0 -DINCLUDE=sections.h2m -DOUTPUT=tuner-tune.1 -P man_page.cmake
# help2man runs one program with --help; a command's page needs `tuner COMMAND --help`, so a
# two-line wrapper named tuner-COMMAND stands in for it. The page's one-line description is the
# command's summary in `tuner --help` (empty COMMAND: the overview page tuner(1)). INCLUDE holds the
# sections every page shares, which --help does not say: ENVIRONMENT, FILES, EXIT STATUS, SEE ALSO.
get_filename_component(out_dir ${OUTPUT} DIRECTORY)
file(MAKE_DIRECTORY ${out_dir})
if(COMMAND)
  execute_process(COMMAND ${TUNER} --help OUTPUT_VARIABLE overview RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${TUNER} --help failed (${status})")
  endif()
  string(REGEX MATCH "\n  ${COMMAND} +([^\n]*)" line "${overview}")
  if(NOT line)
    message(FATAL_ERROR "'${COMMAND}' is not among the commands of `tuner --help`")
  endif()
  set(summary "${CMAKE_MATCH_1}")
  set(program ${out_dir}/tuner-${COMMAND})
  file(WRITE ${program} "#!/bin/sh\nexec '${TUNER}' ${COMMAND} \"$@\"\n")
  file(CHMOD ${program} PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
else()
  set(summary "an autotuner and occupancy explorer for CUDA kernels")
  set(program ${TUNER})
endif()
execute_process(COMMAND ${HELP2MAN} --no-info --no-discard-stderr --version-string=${VERSION}
                        --name=${summary} --section=1 --include=${INCLUDE} --output=${OUTPUT} ${program}
                RESULT_VARIABLE status)
if(COMMAND)
  file(REMOVE ${program})
endif()
if(NOT status EQUAL 0)
  message(FATAL_ERROR "help2man failed for ${program} (${status})")
endif()
