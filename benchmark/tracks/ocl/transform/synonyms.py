"""Realistic new names for model identifiers: a word-level synonym table and a word-like fallback.

Renaming must look like another modeller's choice of words, not obfuscation (``x1``), or it measures
nothing but the model's loss of meaning. An identifier is split into words (``startDate`` -> ``start``,
``Date``; ``HeldIn`` -> ``Held``, ``In``), each word found in :data:`SYNONYMS` (written for this benchmark;
plurals are looked up by their singular and pluralised again) is replaced by one of its synonyms, and the
words are joined again with the original capitalisation. The synonym of a word is drawn once per word and
seed, so ``Course``, ``course`` and ``courses`` become ``Module``, ``module`` and ``modules`` together;
the word's other synonyms are the next choices when the drawn one is taken.

An identifier with no word in the table keeps its words and gains a qualifier that is a real word and
says what kind of element it is: ``Widget`` -> ``RegisteredWidget``, ``credits`` -> ``recordedCredits``,
``rooms`` -> ``linkedRooms``, ``HeldIn`` -> ``HeldInLink`` (see :data:`QUALIFIERS`). :func:`candidates`
yields the synonym spelling first, then each qualified spelling; the renaming step takes the first one
that is a legal, unused name.
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator

# word (lower case, singular) : synonyms (camelCase where several words). Written for this benchmark.
_TABLE = """
account: profile, login
active: enabled, live
activity: task, action
actor: performer, participant
address: location, residence
admin: administrator, manager
age: years
agency: bureau, office
agent: representative, broker
airline: carrier
airport: airfield, aerodrome
album: record, collection
amount: quantity, figure
animal: creature, beast
answer: reply, response
appointment: booking, meeting
area: region, zone
article: item, paper
artist: performer, creator
assignment: task, job
attendee: participant, guest
author: writer, creator
available: free, open
balance: funds, credit
band: group, ensemble
bank: lender
bed: berth, bunk
begin: start
bill: invoice, charge
birth: origin
board: panel, committee
body: content, text
book: volume, title
booking: reservation
borrower: lender, member
boss: supervisor, chief
branch: office, outlet
brand: make, label
budget: allowance, funds
building: edifice, structure
buyer: purchaser, customer
capacity: volume, limit
car: vehicle, automobile
card: pass, ticket
cart: basket, trolley
category: kind, group
child: kid, descendant
city: town, municipality
class: group, section
client: customer, patron
clinic: practice, surgery
club: society, association
code: identifier, key
colour: hue, shade
color: hue, shade
comment: remark, note
company: firm, enterprise
competition: contest, tournament
component: part, module
condition: state, status
conference: congress, symposium
contact: liaison
contract: agreement, deal
cost: price, charge
country: nation, land
course: module, subject
credit: point, unit
customer: client, buyer
date: day
deadline: dueDate, cutoff
degree: diploma, qualification
department: division, unit
deposit: payment, instalment
description: summary, details
destination: target, endpoint
developer: programmer, engineer
device: gadget, appliance
director: head, chief
discount: rebate, reduction
doctor: physician, medic
document: file, record
driver: chauffeur, operator
due: owed, payable
duration: length, span
edition: version, issue
email: mail
employee: worker, staffMember
employer: company, firm
end: finish
engine: motor
enrollment: registration, admission
enrolment: registration, admission
episode: instalment, part
event: occasion, happening
exam: test, assessment
expense: cost, expenditure
experience: expertise, background
faculty: school, college
fee: charge, cost
file: document, record
film: movie, picture
flight: trip, journey
floor: level, storey
friend: companion, buddy
game: match, play
garage: depot, workshop
genre: style, category
grade: mark, score
group: team, circle
guest: visitor, customer
head: leader, chief
height: altitude, stature
hospital: infirmary, clinic
hotel: inn, lodge
hour: time
house: home, dwelling
id: identifier, key
income: earnings, revenue
invoice: bill, statement
issue: problem, ticket
item: article, entry
job: position, role
journey: trip, voyage
kind: sort, type
language: tongue, dialect
lead: head, principal
leader: head, captain
lecture: lesson, talk
lecturer: teacher, instructor
length: extent, span
lesson: class, session
level: tier, grade
library: archive, repository
limit: cap, ceiling
line: row, entry
list: catalogue, register
loan: borrowing, lending
location: place, site
manager: supervisor, director
manufacturer: maker, producer
mark: grade, score
match: game, fixture
member: participant, subscriber
membership: subscription, enrolment
menu: list, selection
message: note, notice
model: design, version
month: period
movie: film, picture
name: label, title
nurse: carer, attendant
number: index, reference
office: bureau, branch
order: purchase, request
organisation: institution, body
organization: institution, body
owner: proprietor, holder
package: parcel, bundle
page: sheet, leaf
parent: guardian, ancestor
part: piece, component
participant: attendee, entrant
passenger: traveller, rider
patient: client, case
payment: settlement, remittance
period: term, span
person: individual, human
phone: telephone
pilot: aviator, captain
place: spot, location
plan: scheme, schedule
player: competitor, athlete
point: mark, score
policy: rule, scheme
position: placement, rank
post: message, entry
price: cost, rate
priority: urgency, rank
product: article, good
professor: lecturer, academic
profile: account, record
program: programme, scheme
project: initiative, venture
property: estate, asset
provider: supplier, vendor
publisher: press, imprint
purchase: order, acquisition
quantity: amount, number
question: query, enquiry
rank: grade, tier
rate: tariff, charge
rating: score, grade
reader: member, patron
reservation: booking
review: assessment, appraisal
role: function, part
room: chamber, hall
rule: regulation, policy
salary: pay, wage
sale: deal, transaction
schedule: timetable, agenda
school: academy, college
score: points, tally
seat: place, chair
section: part, division
seller: vendor, merchant
semester: term, session
session: sitting, meeting
shelf: rack, ledge
ship: vessel, boat
shop: store, outlet
skill: ability, competence
song: track, tune
speaker: presenter, lecturer
speed: velocity, pace
staff: personnel, workforce
stage: phase, step
start: commence, opening
station: stop, terminal
status: state, condition
stock: inventory, supply
store: shop, outlet
street: road, avenue
student: learner, pupil
subject: topic, theme
supervisor: manager, overseer
supplier: vendor, provider
task: job, duty
tax: levy, duty
teacher: instructor, tutor
team: squad, crew
term: period, semester
ticket: pass, voucher
time: moment, hour
title: heading, caption
total: aggregate, overall
tournament: championship, contest
track: course, route
train: railcar, locomotive
transaction: transfer, operation
trip: journey, tour
type: kind, category
university: college, institute
user: member, client
value: worth, figure
vehicle: car, conveyance
venue: location, site
version: release, edition
visit: call, appointment
visitor: guest, caller
warehouse: depot, storehouse
weight: mass, load
width: breadth, span
worker: employee, labourer
year: annum
zone: area, sector
mentor: adviser, coach
mentee: protege, trainee
teach: instruct, tutor
teaches: instructs, tutors
own: possess, hold
owns: possesses, holds
contain: comprise, enclose
contains: comprises, encloses
employ: hire, engage
employs: hires, engages
work: labour, serve
works: labours, serves
manage: supervise, direct
manages: supervises, directs
supervise: oversee, manage
supervises: oversees, manages
attend: visit, join
attends: visits, joins
enroll: register, sign
borrow: loan, take
writes: authors, pens
write: author, compose
wrote: authored, penned
hold: keep, carry
held: kept, hosted
belong: pertain, relate
belongs: pertains, relates
has: owns, holds
host: organiser, hostess
hosts: organises, stages
assign: allocate, allot
assigned: allocated, allotted
place: spot, position
located: situated, placed
schedules: plans, timetables
stays: lodges, resides
stay: lodging, visit
drive: steer, pilot
drives: steers, pilots
offer: provide, supply
offers: provides, supplies
rent: hire, lease
rental: hire, lease
lives: resides, dwells
live: reside, dwell
member: participant, subscriber
plays: performs, competes
play: game, performance
first: initial, primary
last: final, latest
full: complete, whole
max: upper, top
min: lower, least
minimum: least, lowest
maximum: most, highest
valid: legitimate, approved
open: available, accessible
closed: shut, finished
paid: settled, cleared
married: wedded, partnered
added: inserted, included
admission: intake, entry
admitted: accepted, received
advisee: mentee, counselee
advises: counsels, guides
advisor: counsellor, guide
affiliation: attachment, membership
aircraft: airplane, plane
arrival: landing, coming
arrives: lands, reaches
assignee: appointee, delegate
attendant: steward, assistant
attending: present, participating
authored: written, penned
authorship: writing, credit
barcode: tag, label
battery: cell, accumulator
blacklisted: banned, barred
blocked: barred, stopped
blocker: obstacle, impediment
blocks: bars, obstructs
borrowed: lent, loaned
cancelled: annulled, voided
captain: skipper, commander
caption: legend, subtitle
certified: accredited, licensed
chair: chairperson, convener
charger: socket, plug
check: inspection, control
classifies: categorises, sorts
cleans: tidies, services
confidence: certainty, trust
connection: link, transfer
contractor: freelancer, supplier
copy: duplicate, exemplar
corresponding: matching, related
coupon: voucher, token
crew: personnel, team
damaged: broken, harmed
day: workday, date
debit: charge, withdrawal
delay: lateness, lag
deliverable: output, artefact
delivers: supplies, hands
departs: leaves, exits
departure: takeoff, leaving
depends: relies, hinges
distance: span, length
done: finished, complete
dosage: dose, measure
download: fetch, transfer
driven: steered, operated
drop: release, fall
dropoff: handover, delivery
drug: medication, medicine
electrified: powered, energised
fare: charge, price
feeder: source, supplier
follower: fan, subscriber
following: followed, tracked
follows: tracks, watches
handle: nickname, alias
headed: led, directed
holder: bearer, keeper
housekeeper: cleaner, caretaker
insurance: cover, coverage
intern: trainee, apprentice
issued: granted, published
joined: entered, signed
junior: novice, trainee
liked: favoured, approved
liker: fan, admirer
likes: favours, approvals
managed: run, supervised
mileage: odometer, distance
milestone: checkpoint, goal
offered: proposed, provided
onward: next, following
operated: run, worked
organises: arranges, coordinates
origin: source, provenance
original: master, source
outgoing: departing, leaving
ownership: possession, tenure
paper: submission, article
parked: stationed, placed
passport: permit, travelDocument
payload: cargo, load
percent: percentage, rate
pickup: collection, fetch
plate: plaque, registration
platform: stand, bay
predecessor: forerunner, antecedent
prefix: preface, head
prerequisite: requirement, precondition
prescriber: physician, doctor
prescription: script, order
presentation: talk, demo
privacy: secrecy, discretion
range: reach, scope
receptionist: clerk, concierge
redeems: claims, uses
registered: enrolled, listed
registration: enrolment, signup
renter: tenant, hirer
reply: answer, response
reserver: booker, holder
reserves: books, holds
resident: occupant, inhabitant
returned: restored, handedBack
reviewed: assessed, evaluated
reviewer: referee, assessor
runs: operates, serves
sequence: series, order
serves: attends, supplies
severity: gravity, seriousness
share: portion, part
shipment: delivery, consignment
short: brief, small
source: origin, provider
specialty: speciality, field
star: point, mark
stop: halt, station
subcategory: subgroup, subdivision
submitted: filed, lodged
subtask: step, subactivity
successor: follower, heir
target: goal, destination
taught: instructed, tutored
text: content, wording
tier: level, rank
unlocks: opens, enables
van: truck, lorry
verified: confirmed, checked
ward: wing, department
"""

_PLURAL_EXCEPTIONS = {"person": "people", "child": "children", "staff": "staff", "class": "classes"}
_SINGULAR_EXCEPTIONS = {v: k for k, v in _PLURAL_EXCEPTIONS.items()}


def _parse(table: str) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for line in table.strip().splitlines():
        word, _, rest = line.partition(":")
        synonyms = tuple(s.strip() for s in rest.split(",") if s.strip() and s.strip() != word.strip())
        out.setdefault(word.strip().lower(), synonyms)
    return out


SYNONYMS: dict[str, tuple[str, ...]] = _parse(_TABLE)

#: Qualifiers of the fallback, per element kind: (where, words). A class ``Widget`` becomes
#: ``RegisteredWidget``, an attribute ``credits`` ``recordedCredits``, an association ``HeldIn``
#: ``HeldInLink``.
QUALIFIERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "class": ("prefix", ("Registered", "Recorded", "Managed", "Listed", "Tracked")),
    "enumeration": ("suffix", ("Kind", "Option", "Choice", "Category")),
    "attribute": ("prefix", ("recorded", "stated", "declared", "current", "given")),
    "role": ("prefix", ("related", "linked", "assigned", "associated", "connected")),
    "association": ("suffix", ("Link", "Relation", "Connection", "Relationship", "Association")),
}

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^A-Za-z0-9]+")


def split_words(identifier: str) -> list[str]:
    """``startDate`` -> ``start``, ``Date``; ``ISBNCode`` -> ``ISBN``, ``Code``; separators kept."""
    return _WORD.findall(identifier)


def pluralize(word: str) -> str:
    if word in _PLURAL_EXCEPTIONS:
        return _PLURAL_EXCEPTIONS[word]
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


def _singulars(word: str) -> list[str]:
    found = [_SINGULAR_EXCEPTIONS[word]] if word in _SINGULAR_EXCEPTIONS else []
    if word.endswith("ies"):
        found.append(word[:-3] + "y")
    if word.endswith("es"):
        found.append(word[:-2])
    if word.endswith("s") and not word.endswith("ss"):
        found.append(word[:-1])
    return found


def synonyms_of(word: str, seed: int) -> list[str]:
    """The synonyms of ``word`` in its case, the one drawn for the seed first (plurals through their
    singular); empty when the table has none."""
    lower = word.lower()
    found = _ordered(lower, seed)
    if not found:
        for singular in _singulars(lower):
            found = [pluralize(s) for s in _ordered(singular, seed)]
            if found:
                break
    return [_match_case(word, s) for s in found]


def synonym_of(word: str, seed: int) -> str | None:
    """The synonym drawn for ``word`` (see :func:`synonyms_of`), or None."""
    found = synonyms_of(word, seed)
    return found[0] if found else None


def _ordered(word: str, seed: int) -> list[str]:
    options = list(SYNONYMS.get(word, ()))
    if not options:
        return []
    drawn = random.Random(f"synonym/{seed}/{word}").choice(options)
    return [drawn, *(o for o in options if o != drawn)]


def _match_case(original: str, word: str) -> str:
    if original.isupper() and len(original) > 1:
        return word.upper()
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


_MAX_SPELLINGS = 12


def spellings(identifier: str, seed: int) -> list[str]:
    """``identifier`` with its words replaced by synonyms: every word drawn first, then the other
    combinations (at most a dozen); empty when no word has a synonym."""
    words = split_words(identifier)
    options: list[list[str]] = []
    for i, word in enumerate(words):
        found = synonyms_of(word, seed) if word[:1].isalpha() else []
        if i > 0 and words[i - 1][:1].isalpha():  # camelCase: later words start in upper case
            found = [f[:1].upper() + f[1:] for f in found]
        options.append(found or [word])
    if all(len(o) == 1 and o[0] == w for o, w in zip(options, words, strict=True)):
        return []
    out = []
    for combination in itertools.islice(itertools.product(*options), _MAX_SPELLINGS + 1):
        text = "".join(combination)
        if text != identifier:
            out.append(text)
    return out[:_MAX_SPELLINGS]


def with_synonyms(identifier: str, seed: int) -> str:
    """Every word of ``identifier`` that has a synonym replaced by the drawn one (or the identifier)."""
    found = spellings(identifier, seed)
    return found[0] if found else identifier


def qualified(identifier: str, kind: str, seed: int) -> list[str]:
    """The identifier with each qualifier of its kind, in an order drawn for the seed."""
    where, words = QUALIFIERS[kind]
    order = list(words)
    random.Random(f"qualifier/{seed}/{kind}/{identifier}").shuffle(order)
    if where == "suffix":
        return [identifier + q for q in order]
    first_upper = identifier[:1].isupper()
    return [
        (q[:1].upper() + q[1:] if first_upper else q) + identifier[:1].upper() + identifier[1:] for q in order
    ]


def candidates(identifier: str, kind: str, seed: int) -> Iterator[str]:
    """New names for an element, best first: the synonym spellings (drawn synonyms, then the others),
    the qualified spellings of the first one and of the identifier, then numbered ones as a last
    resort that real models never reach."""
    found = spellings(identifier, seed)
    yield from found
    primary = found[0] if found else identifier
    yield from qualified(primary, kind, seed)
    if found:
        yield from qualified(identifier, kind, seed)
    n = 2
    while True:
        yield f"{primary}{n}"
        n += 1
