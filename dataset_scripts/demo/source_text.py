"""Original source sentences of the embedded stylebench demo benchmark.

Every sentence below was written for the stylebench project by its developers; none is quoted
from a book, corpus, website or data set. The text is released with the project under the
project licence (Apache-2.0).

The sentences are deliberately neutral and plain, and written in the *base* style of the demo:
formal vocabulary (``purchase`` rather than ``buy``), no contractions (``it is`` rather than
``it's``), numbers spelled as words (``seven`` rather than ``7``), normal capitalisation and end
punctuation. Each sentence contains at least one phrase that every transformation in
:mod:`dataset_scripts.demo.transforms` rewrites, so every transformation changes every sentence.

``SENTENCES`` and ``TOPICS`` are parallel tuples: ``TOPICS[i]`` is the everyday topic of
``SENTENCES[i]``. The topics are interleaved (round robin), so any prefix of ``SENTENCES`` is
spread evenly over the topics.
"""

from __future__ import annotations

_SENTENCES_BY_TOPIC: dict[str, tuple[str, ...]] = {
    "cooking": (
        "It is important to purchase fresh vegetables, and we usually need approximately three carrots for this soup.",
        "However, the bread will not rise properly unless the dough rests for at least two hours in a warm kitchen.",
        "We are going to require four eggs, a cup of milk and sufficient flour to make a thick batter.",
        "The children cannot reach the top shelf, so they often request assistance when they want the five jars of jam.",
        "Therefore, you will need to commence cooking the rice approximately fifteen minutes before the fish goes into the oven.",
        "My grandmother does not measure anything, yet her soup for six people is always sufficient and very tasty.",
        "They have attempted to bake a cake with twelve layers, although the middle collapsed after an hour in the oven.",
        "If you are cooking pasta for eight guests, you should purchase at least two large packets from the market.",
        "It is not difficult to make a simple salad with three tomatoes, one cucumber and a little olive oil.",
        "We have frequently noticed that a sauce tastes better when it is left to cool for twenty minutes.",
        "The recipe requires nine spoons of sugar, which is too much for children who do not like sweet food.",
    ),
    "weather": (
        "It is expected to rain for approximately four days, so the farmers will not need to water their fields.",
        "However, the forecast says the temperature will drop to zero degrees during the night, so we are bringing extra blankets.",
        "They have informed us that the storm should commence after six in the evening and continue until dawn.",
        "Children cannot play outside when the wind is this strong, therefore the school has closed for two days.",
        "We do not own sufficient umbrellas for the seven people staying in our house this week.",
        "Snow is rare in this town, but it is possible that we will receive ten centimetres before Friday.",
        "The sun has not appeared for eleven days, and numerous people are starting to feel tired of the grey sky.",
        "If the fog does not clear within three hours, the ferry will remain in the harbour until tomorrow morning.",
        "It was approximately thirteen degrees at noon, and that is warm for a day in early March.",
        "We are hoping the heat will ease soon, because the last five days have been difficult for everyone.",
        "Individuals who reside near the coast should not leave their boats on the beach during the eight windy weeks of autumn.",
    ),
    "trains": (
        "The train to the coast departs at nine, and it will not wait for passengers who are late.",
        "We have purchased four tickets for Saturday, although the seats are not reserved on this line.",
        "Passengers who require assistance with heavy bags should not hesitate to request it at platform two.",
        "It is approximately three hours from the capital to the mountains if the express train does not stop.",
        "The children are not allowed to travel alone, therefore a parent must stay with them for all six stops.",
        "Our train has been delayed by twenty minutes, and the guard cannot inform us why it has stopped.",
        "They are building a new station that will serve approximately fifteen thousand people every day.",
        "If you are travelling with a bicycle, you will need to obtain an additional ticket for seven euros.",
        "The night train does not have a restaurant, so passengers should purchase food prior to departure at ten.",
        "We were not sure which platform to use, so we requested directions from two friendly members of staff.",
        "I am frequently surprised that the old steam engine can still pull eight carriages up the steep hill.",
    ),
    "gardening": (
        "It is best to commence planting potatoes in spring, approximately six weeks after the last frost.",
        "We have grown three rows of beans this year, and they require water every evening during dry weather.",
        "The roses will not flower properly unless they receive sufficient sunlight for at least five hours a day.",
        "However, my neighbour does not believe that coffee grounds assist her four tomato plants in any way.",
        "The children have planted eleven sunflowers along the fence, and they are already taller than their father.",
        "You should not cut the hedge while birds are nesting, therefore we will wait for two more months.",
        "Our garden is small, but it is large enough for a bench, a pond and nine pots of herbs.",
        "They do not use chemicals on their allotment, and they have received a prize for their vegetables four times.",
        "Weeds frequently grow between the stones, so it is difficult to keep the path tidy for more than three weeks.",
        "If you are planting fruit trees, leave approximately four metres between them so their roots have sufficient space.",
        "We cannot reside in the countryside yet, although our balcony holds twelve pots of flowers and herbs.",
    ),
    "football": (
        "The team has not won a match for seven weeks, and numerous supporters are losing patience with the coach.",
        "It is expected that approximately twenty thousand fans will attend the final on Sunday afternoon.",
        "However, the referee did not see the foul, so the goal was allowed and the score became two to one.",
        "Children under twelve do not need to purchase a ticket if they are sitting with an adult.",
        "We are going to commence training at six in the morning, because the pitch is busy later in the day.",
        "The goalkeeper cannot play on Saturday, therefore the club will require a replacement for at least three games.",
        "They have scored eight goals in their last four matches, which demonstrates how much the team has improved.",
        "My brother does not reside near the stadium, so he departs at ten to arrive before the match begins.",
        "It is difficult to obtain tickets for the derby, as the fifteen thousand seats are sold within minutes.",
        "You will receive an additional point for every five passes you complete during the practice game.",
        "Players who are injured should not attempt to continue, and the physio will assist them off the pitch within two minutes.",
    ),
    "libraries": (
        "It is possible to borrow up to ten books at once, and numerous readers take the maximum every visit.",
        "Children are not permitted to use the computers without assistance from a member of staff for the first two sessions.",
        "However, the library will not be open on Monday, because the staff are moving approximately four thousand books.",
        "We have requested a copy of the novel, and the librarian says it will arrive in five days.",
        "If you do not return a book on time, the fee is one euro a day, therefore please remember the date.",
        "The reading room is silent, so individuals who wish to talk cannot stay there and must use the six small rooms upstairs.",
        "They have recently purchased eleven new computers for the study area on the ground floor.",
        "The library frequently hosts a story hour for children, and it is always full by ten in the morning.",
        "It is sufficient to show your card once, and the system will remember you for twelve months.",
        "We do not know why the old map collection remains closed, but it has been locked for seven years.",
        "Students who require a quiet place can reserve a desk for up to four hours if they are working alone.",
    ),
    "computers": (
        "It is a good idea to restart the computer approximately every seven days so that updates can install properly.",
        "The laptop will not charge, therefore I am going to purchase a new cable that costs twelve euros.",
        "We have attempted to install the printer three times, but it does not appear in the list of devices.",
        "However, the program cannot open files larger than two gigabytes without additional memory.",
        "My children frequently forget their passwords, so I have written all five of them in a notebook.",
        "You will require at least eight characters, including a number, to create a secure password.",
        "The old computer does not have sufficient memory to run more than four programs at the same time.",
        "If the screen remains black after ten seconds, it is probably a problem with the cable.",
        "They are currently replacing all twenty computers in the office, which should take approximately two days.",
        "We cannot assist with personal laptops, although the help desk will answer simple questions for fifteen minutes.",
        "It is important to save your work frequently, because the program sometimes closes without warning three times a day.",
    ),
    "birds": (
        "It is easy to observe robins in winter, because two or three of them visit most gardens each morning.",
        "We have counted approximately eighteen sparrows in the hedge behind the house this morning.",
        "Swallows depart each autumn and fly for more than six weeks, and they do not return until spring.",
        "The children have built three nest boxes, and they are hoping that blue tits will reside in them.",
        "However, you should not feed bread to the five ducks in the park, since it is not good for them.",
        "An owl cannot move its eyes, therefore it turns its head almost three quarters of the way around.",
        "We are planning to purchase two pairs of binoculars so that we can observe the eagles from the hill.",
        "They have frequently seen a heron standing in the river for approximately twenty minutes without moving.",
        "The feeder requires refilling every four days, and it is usually the finches that empty it first.",
        "It is unusual to receive a visit from a woodpecker, yet we saw a pair at seven this morning.",
        "Numerous geese fly over the village in October, and their noise does not stop for approximately nine days.",
    ),
    "museums": (
        "It is free to visit the museum on the first Sunday of the month, although the three special galleries charge an additional fee.",
        "Children under five do not require a ticket, and there is a quiet room for families with babies.",
        "However, visitors cannot take photographs in the gallery, because the light may damage the twelve old paintings.",
        "We have spent approximately four hours looking at the dinosaur skeletons and the collection of fossils.",
        "The guide will assist anyone who is interested, and tours commence every two hours, so you do not need to book.",
        "They are currently building a new wing that will demonstrate how people lived eleven centuries ago.",
        "It is not permitted to touch the statues, therefore visitors should remain at least two metres away from them.",
        "The museum shop sells numerous postcards, and we have purchased six of them for our friends abroad.",
        "If you are interested in science, the museum has approximately fifteen rooms of interactive exhibits.",
        "Individuals who do not wish to climb the stairs can use the lift beside the ten large windows.",
        "I am frequently surprised that nine school groups visit the museum on a single rainy Tuesday.",
    ),
    "cycling": (
        "It is approximately twelve kilometres from our house to the office, and I cycle there on most days.",
        "You should not ride at night without lights, therefore we have purchased two new lamps for our bicycles.",
        "However, the hill near the school is difficult, and the four children cannot ride all the way up it.",
        "We are planning a ride along the river that will take approximately five hours, including a break for lunch.",
        "They have attempted to cycle the nineteen kilometres to the coast, but the strong wind stopped them.",
        "A helmet does not cost much, and it is sufficient protection for most trips of under ten kilometres.",
        "If your tyre is flat, you will require a pump, two levers and a spare tube.",
        "The city has built numerous new cycle lanes, so it is now possible to commute safely in approximately twenty minutes.",
        "We do not reside close to a repair shop, therefore my father taught me to fix my own bicycle when I was eight.",
        "It is wise to check the brakes before you depart, especially on a trip of more than three days.",
        "Numerous cyclists are not aware that the bridge will be closed for six weeks starting in May.",
    ),
    "shopping": (
        "It is cheaper to purchase rice in large bags, because one bag of five kilos lasts approximately two months.",
        "The supermarket does not open until nine on Sundays, therefore we usually shop on Saturday evening.",
        "However, the small shop on the corner will not accept cards if you spend less than ten euros.",
        "We have requested a refund for the three broken glasses, and the manager says it will arrive soon.",
        "If you are shopping with children, it is wise to obtain a trolley with a seat for a child under four.",
        "They have reduced the price of numerous items by twenty percent during the summer sale.",
        "I cannot find sufficient time to compare prices, so I purchase the same seven items each week.",
        "The market commences at eight in the morning, and the best fruit is not available after ten.",
        "You will receive a discount of fifteen percent if you show your student card at the till.",
        "We are attempting to spend less, so we write a list of twelve items and do not purchase anything else.",
        "It is difficult to find shoes in my size, and the shop on the high street has only two pairs.",
    ),
    "school": (
        "It is important that children arrive before nine, because lessons commence immediately after the bell.",
        "The teacher will not accept homework that is late, although she permits one additional day if you are ill.",
        "There are approximately twenty pupils in each class, and they are divided into four groups for reading.",
        "However, the school does not have sufficient computers, so the pupils share one machine between three.",
        "The children are studying numerous planets this term, and they have already built a model of all eight.",
        "Students who reside more than five kilometres away can receive a free bus pass, although it is not automatic.",
        "Pupils must wear a uniform, therefore the shop sells jumpers for approximately twelve euros, which is not expensive.",
        "If you are absent for more than two days, you will need to obtain a note from a doctor.",
        "The exam will commence at ten, and students cannot leave the hall during the first hour.",
        "I am attempting to assist my younger brother with his maths homework, which contains seventeen questions.",
        "We do not give tests to children under seven, as we believe they learn more through play.",
    ),
}


def _round_robin(by_topic: dict[str, tuple[str, ...]]) -> tuple[tuple[str, str], ...]:
    """Interleave the topics: the first sentence of every topic, then every second, and so on."""
    longest = max(len(sentences) for sentences in by_topic.values())
    return tuple(
        (topic, sentences[i])
        for i in range(longest)
        for topic, sentences in by_topic.items()
        if i < len(sentences)
    )


_ORDERED = _round_robin(_SENTENCES_BY_TOPIC)

SENTENCES: tuple[str, ...] = tuple(sentence for _, sentence in _ORDERED)
"""The plain (base-style) source sentences, with the topics interleaved so that any prefix
(``SENTENCES[:60]``) or block of consecutive sentences covers many topics."""

TOPICS: tuple[str, ...] = tuple(topic for topic, _ in _ORDERED)
"""``TOPICS[i]`` is the everyday topic of ``SENTENCES[i]``."""

__all__ = ["SENTENCES", "TOPICS"]
