# nbgrader's configuration for the course (TEACHING.md, "Homework"). Run nbgrader from this
# folder: source/<assignment>/ holds the teacher's notebooks with solutions and hidden tests.
c = get_config()  # noqa: F821 (nbgrader provides it)

c.CourseDirectory.course_id = "bayescomp"
c.CourseDirectory.assignment_id = ""
# The grader's own long Metropolis runs take a few seconds per submission.
c.ExecutePreprocessor.timeout = 600
# A student's code stub, where the solution was.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"
