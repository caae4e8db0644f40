"""A campus model and object state written for the OCL tests (not taken from USE's examples): the
language's tests (``tests/lang/ocl``) evaluate OCL on it, the track's (``tests/tracks/ocl``) transform it."""

CAMPUS_USE = """\
-- campus model for the OCL track tests
model Campus

enum Term { spring, fall }
enum Light { red, amber }
enum Paint { red, blue }

abstract class Person
attributes
  name : String
  age : Integer
  nick : String
  initial : String derive = self.name.substring(1, 1)
operations
  greeting(p : String) : String = p.concat(' ').concat(self.name)
  isSenior() : Boolean = self.age >= 65
  countdown(n : Integer) : Integer = if n <= 0 then 0 else self.countdown(n - 1) + 1 endif
end

class Student < Person
attributes
  gpa : Real
  tags : Set(String)
end

class Professor < Person
attributes
  salary : Integer
operations
  raise(pct : Integer) : Real = self.salary * (1 + pct / 100)
end

class Course
attributes
  title : String
  credits : Integer
  term : Term
end

class Room
attributes
  number : Integer
  seats : Integer init = 30
end

class Department
end

association Teaches between
  Professor[0..1] role lecturer
  Course[*] role courses ordered
end

association Mentoring between
  Professor[0..1] role mentor
  Student[*] role mentees
end

association HeldIn between
  Course[*]
  Room[1]
end

associationclass Enrollment between
  Student[*] role students
  Course[*] role enrolled
attributes
  grade : Integer
end

composition Owns between
  Department[1] role owner
  Room[*] role rooms
end

association Exam between
  Student[*] role examinee
  Course[*] role examCourse
  Room[0..1] role examRoom
end

constraints
context Person inv nameDefined: self.name.isDefined()
context Student inv adult: self.age >= 18
context Student inv gpaRange: self.gpa >= 0
context Course inv hasTitle: self.title <> ''
context c : Course inv creditsPositive: c.credits > 0
context Professor inv teachesSomething: self.courses->notEmpty() or self.age > 60
context Person inv: self.age < 200
"""

CAMPUS_SOIL = """\
-- a campus state
!new Student('ann')
!ann.name := 'Ann'
!ann.age := 20
!ann.nick := 'annie'
!ann.gpa := 3.5
!ann.tags := Set{'a', 'b'}
!new Student('ben')
!set ben.name := 'Ben'
!set ben.age := 17
!pia := new Professor('pia')
!pia.name := 'Pia'
!pia.age := 50
!pia.salary := 1000
!create pit : Professor
!pit.name := 'Pit'
!pit.age := 70
!create c1, c2, c3 : Course
!c1.title := 'Logic'
!c1.credits := 5
!c1.term := #fall
!c2.title := 'Sets'
!c2.credits := 3
!c2.term := Term::spring
!c3.title := 'Graphs'
!new Room('r1')
!r1.number := 101
!new Department('d1')
!insert (pia, c1) into Teaches
!insert (pia, c2) into Teaches
!insert (pia, ann) into Mentoring
!insert (c1, r1) into HeldIn
!insert (c2, r1) into HeldIn
!new Enrollment('e1') between (ann, c1)
!e1.grade := 2
!new Enrollment('e2') between (ann, c2)
!create e3 : Enrollment between (ben, c1)
!e3.grade := 4
!insert (d1, r1) into Owns
!insert (ann, c1, r1) into Exam
check
"""
