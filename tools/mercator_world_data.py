"""The Mercator world board's data, in the short form tools/make_mercator_world.py turns into
maps/mercator-world.toml. The board is the project's own Mark (no Mark's map is public): choices
and their reasons are in maps/mercator-world.md.

Each province line is `code | name | terrain | latitude, longitude | centre | aliases`; the
latitude and longitude (degrees, south and west negative) are a point inside the province, from
which the picture position is worked out. Each move is written once, from either end
(`a: b c` is a-b and a-c); the script lists it from both ends.
"""

from __future__ import annotations

PROVINCES = """
# --- seas of Europe and the Mediterranean -------------------------------------------------------
nao | North Atlantic Ocean | sea | 52, -30 | | NAO, North Atlantic
nwg | Norwegian Sea | sea | 68, 3 | | NWG, Norwegian
bar | Barents Sea | sea | 73, 40 | | Barents
nth | North Sea | sea | 56, 3 | | NTH
ska | Skagerrak | sea | 57.8, 9.5 | | Ska
hel | Heligoland Bight | sea | 54.5, 7.5 | | Helgoland, Heligoland
bal | Baltic Sea | sea | 56, 18 | | Baltic
bot | Gulf of Bothnia | sea | 62, 20 | | GoB, Bothnia
eng | English Channel | sea | 50, -2 | | ENC, Channel
iri | Irish Sea | sea | 52.5, -5.5 | | IRI, Irish
mao | Mid-Atlantic Ocean | sea | 38, -25 | | MAO, Mid Atlantic
wes | Western Mediterranean | sea | 38.5, 3 | | WMS, West Med, Western Med
lyo | Gulf of Lyon | sea | 42, 5 | | GoL, Gulf of Lions, Lyons
tys | Tyrrhenian Sea | sea | 40, 12 | | Tyrrhenian, TYN
ion | Ionian Sea | sea | 36, 19 | | Ionian
adr | Adriatic Sea | sea | 43, 15.5 | | Adriatic
aeg | Aegean Sea | sea | 38.5, 25 | | Aegean
eas | Eastern Mediterranean | sea | 34, 30 | | EMS, East Med, Eastern Med
bla | Black Sea | sea | 43, 34 | | Black
# --- the Arctic seas ---------------------------------------------------------------------------
grs | Greenland Sea | sea | 75, -5 | |
kar | Kara Sea | sea | 75, 70 | | Kara
lap | Laptev Sea | sea | 76, 125 | | Laptev
ess | East Siberian Sea | sea | 72, 170 | | ESS, Chukchi Sea
bea | Beaufort Sea | sea | 72, -140 | | Beaufort
baf | Baffin Bay | sea | 72, -65 | | Baffin
# --- the Atlantic -------------------------------------------------------------------------------
lab | Labrador Sea | sea | 58, -52 | | Labrador
hud | Hudson Bay | sea | 60, -85 | | Hudson
wat | Western Atlantic | sea | 36, -65 | | WAT, West Atlantic, Sargasso Sea
gom | Gulf of Mexico | sea | 25, -90 | | GoM
car | Caribbean Sea | sea | 15, -75 | | Caribbean
ctl | Central Atlantic | sea | 5, -28 | | CAT
gog | Gulf of Guinea | sea | 1, 3 | | GoG
sat | South Atlantic Ocean | sea | -25, -10 | | South Atlantic
rpl | Argentine Sea | sea | -42, -55 | | River Plate
# --- the Southern Ocean, round the Antarctic -----------------------------------------------------
dra | Drake Passage | sea | -58, -65 | | Drake
wed | Weddell Sea | sea | -64, -35 | | Weddell
sos | Southern Ocean | sea | -52, 30 | | SOS
sio | South Indian Ocean | sea | -42, 85 | | SIO
ros | Ross Sea | sea | -66, -175 | | Ross
ams | Amundsen Sea | sea | -65, -110 | | Amundsen
# --- the Pacific --------------------------------------------------------------------------------
sop | South Pacific Ocean | sea | -25, -150 | | SPO, South Pacific
sep | Southeast Pacific | sea | -30, -95 | | SEP
epa | Eastern Pacific | sea | 5, -100 | | EPA, East Pacific
nep | Northeast Pacific | sea | 33, -130 | | NEP
gak | Gulf of Alaska | sea | 55, -145 | | GoA
nop | North Pacific Ocean | sea | 42, -165 | | NPO, North Pacific
cpa | Central Pacific | sea | 15, -165 | | CPA
bes | Bering Sea | sea | 58, -178 | | Bering
okh | Sea of Okhotsk | sea | 55, 150 | | Okhotsk
nwp | Northwest Pacific | sea | 38, 158 | | NWP
wpa | Western Pacific | sea | 6, 152 | | WPA, Bismarck Sea
soj | Sea of Japan | sea | 40, 134 | | SoJ
yel | Yellow Sea | sea | 36, 123 | | Yellow
ecs | East China Sea | sea | 29, 125 | | ECS
phs | Philippine Sea | sea | 18, 133 | | Philippine Sea
scs | South China Sea | sea | 12, 113 | | SCS
cls | Celebes Sea | sea | 3, 123 | | Celebes Sea, Sulu Sea
jvs | Java Sea | sea | -5, 112 | | Java Sea
ban | Banda Sea | sea | -6, 127 | | Banda
afs | Arafura Sea | sea | -10, 136 | | Arafura
tms | Timor Sea | sea | -12, 125 | | Timor
cor | Coral Sea | sea | -17, 155 | | Coral
tas | Tasman Sea | sea | -40, 160 | | Tasman
gab | Great Australian Bight | sea | -37, 130 | | GAB, Bight
# --- the Indian Ocean ---------------------------------------------------------------------------
eio | East Indian Ocean | sea | -15, 95 | | EIO
ans | Andaman Sea | sea | 10, 95 | | Andaman, Strait of Malacca
bob | Bay of Bengal | sea | 15, 88 | | BoB
cio | Central Indian Ocean | sea | -2, 72 | | CIO
ars | Arabian Sea | sea | 15, 63 | | Arabian
pgf | Persian Gulf | sea | 27, 51 | | PG
gad | Gulf of Aden | sea | 12.5, 48 | | Aden Gulf
red | Red Sea | sea | 20, 38 | | Red
wio | Western Indian Ocean | sea | -8, 55 | | WIO
mzc | Mozambique Channel | sea | -18, 41 | | MZC
# --- the polar caps (rule 6.2) ------------------------------------------------------------------
arc | Arctic | polar | 84, 0 | | North Pole, Arctic Ice
ant | Antarctic | polar | -80, 0 | | Antarctica, South Pole
# --- the British Isles and the North -----------------------------------------------------------
cly | Clyde | coast | 56.5, -5 | | Glasgow
edi | Edinburgh | coast | 56, -3 | sc | Edin
lvp | Liverpool | coast | 53.5, -2.8 | sc | Lpl, Lvp
yor | Yorkshire | coast | 54, -1.2 | | York
wal | Wales | coast | 52.3, -3.8 | |
lon | London | coast | 51.5, 0 | sc |
ire | Ireland | coast | 53.2, -7.8 | sc | Dublin, Eire
ice | Iceland | coast | 65, -18 | | Reykjavik
grn | Greenland | coast | 72, -40 | |
# --- France, Iberia and the Low Countries -------------------------------------------------------
bre | Brest | coast | 48.2, -3 | sc | Brittany
pic | Picardy | coast | 50, 2 | |
par | Paris | land | 48.8, 2.3 | sc |
gas | Gascony | coast | 44, -0.5 | | Bordeaux
bur | Burgundy | land | 47, 4.5 | |
mar | Marseilles | coast | 43.5, 5.4 | sc | Marseille
spa | Spain | coast | 40.4, -3.7 | sc | Madrid
por | Portugal | coast | 39.5, -8 | sc | Lisbon
bel | Belgium | coast | 50.8, 4.4 | sc | Brussels
hol | Holland | coast | 52.2, 5.3 | sc | Amsterdam, Netherlands
# --- Germany and Scandinavia --------------------------------------------------------------------
ruh | Ruhr | land | 51.3, 7.5 | |
kie | Kiel | canal | 54.3, 10 | sc | Kiel Canal
ber | Berlin | coast | 52.5, 13.4 | sc |
mun | Munich | land | 48.1, 11.6 | sc |
pru | Prussia | coast | 54, 20 | | Konigsberg
sil | Silesia | land | 51, 17 | | Breslau
den | Denmark | coast | 55.7, 11 | sc | Copenhagen
swe | Sweden | coast | 59.3, 17 | sc | Stockholm
nwy | Norway | coast | 61, 9 | sc | Nor, Nwy, Oslo
fin | Finland | coast | 62, 26 | | Helsinki
# --- Austria, Italy and the Balkans -------------------------------------------------------------
boh | Bohemia | land | 50, 14.5 | | Prague
tyr | Tyrolia | land | 47, 11.5 | | Tyrol
vie | Vienna | land | 48.2, 16.4 | sc |
gal | Galicia | land | 49.5, 23 | | Lemberg
bud | Budapest | land | 47.5, 19 | sc |
tri | Trieste | coast | 45.6, 13.8 | sc |
ven | Venice | coast | 45.4, 12.3 | sc | Venezia
pie | Piedmont | coast | 45, 7.7 | | Turin
tus | Tuscany | coast | 43.5, 11 | | Florence
rom | Rome | coast | 41.9, 12.5 | sc |
apu | Apulia | coast | 41, 16 | |
nap | Naples | coast | 40.8, 14.3 | sc |
srd | Sardinia | coast | 40, 9 | | Sard, Cagliari
alb | Albania | coast | 41, 20 | |
ser | Serbia | land | 44, 20.5 | sc | Belgrade
gre | Greece | coast | 38, 22.5 | sc | Athens
bul | Bulgaria | coast | 42.7, 25.3 | sc | Sofia
rum | Rumania | coast | 44.4, 26 | sc | Romania, Bucharest
# --- Turkey and the Near East -------------------------------------------------------------------
con | Constantinople | coast | 41, 29 | sc | Istanbul
ank | Ankara | coast | 40, 33 | sc | Angora
smy | Smyrna | coast | 38.4, 27.5 | sc | Izmir
arm | Armenia | coast | 40, 42 | | Erzurum
syr | Syria | coast | 34, 37 | | Damascus
mes | Mesopotamia | coast | 33.3, 44.4 | sc | Baghdad, Iraq
hej | Hejaz | coast | 23, 39.5 | | Mecca
arb | Arabia | coast | 25, 47 | | Nejd, Riyadh
omn | Oman | coast | 21, 57 | | Muscat
yem | Yemen | coast | 14.5, 45 | sc | Aden
per | Persia | coast | 33, 53 | sc | Tehran, Iran
afg | Afghanistan | land | 34.5, 67 | sc | Kabul
# --- Russia and Siberia -------------------------------------------------------------------------
sev | Sevastopol | coast | 46, 38 | sc | Sevastapol, Crimea
ukr | Ukraine | land | 49, 32 | | Kiev
war | Warsaw | land | 52.2, 21 | sc |
mos | Moscow | land | 55.75, 37.6 | sc |
lvn | Livonia | coast | 57, 25 | | Riga
stp | St Petersburg | coast | 59.9, 30.3 | sc | Saint Petersburg, Petersburg
ark | Archangel | coast | 65, 45 | | Arkhangelsk
ura | Urals | land | 57, 57 | | Ural, Perm
tur | Turkestan | land | 41.3, 66 | sc | Tashkent
oms | Omsk | coast | 60, 72 | | West Siberia
yen | Yenisei | coast | 62, 92 | | Krasnoyarsk
irk | Irkutsk | land | 53, 108 | | Baikal
yak | Yakutsk | coast | 64, 128 | | Yakutia
chk | Chukotka | coast | 66, 172 | | Anadyr
kam | Kamchatka | coast | 57, 159 | | Petropavlovsk
amr | Amur | coast | 52, 136 | | Khabarovsk
skh | Sakhalin | coast | 50, 143 | sc | Karafuto
vla | Vladivostok | coast | 44.5, 133 | | Vlad, Primorye
# --- India and Southeast Asia -------------------------------------------------------------------
snd | Karachi | coast | 25.5, 67 | | Sind
lah | Lahore | land | 31.5, 74.3 | | Punjab, Kashmir
del | Delhi | land | 28.6, 78 | sc |
bom | Bombay | coast | 19, 73.5 | sc | Mumbai
hyd | Hyderabad | land | 17.4, 78.5 | | Deccan
mad | Madras | coast | 12, 79.5 | sc | Chennai
cal | Calcutta | coast | 23, 88 | sc | Bengal, Kolkata
cey | Ceylon | coast | 7.9, 80.7 | sc | Colombo, Sri Lanka
brm | Burma | coast | 19, 96 | sc | Rangoon
sia | Siam | coast | 15, 101 | sc | Bangkok, Thailand
ton | Tonkin | coast | 21, 105 | | Hanoi, Annam
cmb | Cambodia | coast | 12, 105.5 | sc | Saigon, Cochin China
mly | Malaya | coast | 3, 102 | sc | Singapore
sum | Sumatra | coast | 0, 101 | sc |
jav | Java | coast | -7, 110 | sc | Batavia
bor | Borneo | coast | 0.5, 114 | sc |
cel | Celebes | coast | -2, 121 | | Sulawesi
phi | Philippines | coast | 14.6, 121 | sc | Manila, Luzon
ngu | New Guinea | coast | -4, 138 | sc | Irian
pap | Papua | coast | -8, 146.5 | | Port Moresby
# --- China, Korea and Japan ---------------------------------------------------------------------
pek | Peking | coast | 39.9, 116.4 | sc | Beijing, Tientsin
sha | Shanghai | coast | 31.2, 120 | sc | Nanking
han | Hankow | land | 30.6, 113 | sc | Wuhan
can | Canton | coast | 23.1, 113.3 | sc | Guangzhou, Hong Kong
sze | Szechwan | land | 30.7, 104 | | Sichuan, Chengdu
yun | Yunnan | land | 25, 101 | | Kunming
kan | Kansu | land | 37, 102 | | Gansu, Lanchow
sik | Sinkiang | land | 42, 85 | | Xinjiang, Kashgar
tib | Tibet | land | 31, 89 | | Lhasa
mng | Mongolia | land | 46.5, 103 | sc | Urga, Ulan Bator
man | Manchuria | coast | 43, 125 | sc | Mukden, Port Arthur
kor | Korea | coast | 37.5, 127.5 | sc | Seoul
frm | Formosa | coast | 23.7, 121 | | Taiwan
hok | Hokkaido | coast | 43.5, 143 | | Sapporo, Ezo
toh | Tohoku | coast | 38.5, 140.5 | sc | Sendai
tok | Tokyo | coast | 35.7, 139.7 | sc | Edo
osa | Osaka | coast | 34.9, 135.5 | sc | Kyoto
nag | Nagasaki | coast | 32.7, 130.5 | sc | Kyushu
# --- Australia and the Pacific ------------------------------------------------------------------
pth | Perth | coast | -26, 120 | sc | Western Australia
nta | Northern Territory | coast | -16, 133 | | Darwin
adl | Adelaide | coast | -30, 137 | | South Australia
bri | Brisbane | coast | -22, 146 | sc | Queensland
syd | Sydney | coast | -33, 149 | sc | New South Wales
mel | Melbourne | coast | -37.5, 144.5 | sc | Victoria
nzl | New Zealand | coast | -41, 174 | sc | Wellington
fij | Fiji | coast | -18, 178 | sc | Suva
sam | Samoa | coast | -13.8, -172 | | Apia
haw | Hawaii | coast | 20.5, -157 | | Honolulu, Sandwich Islands
mrn | Mariana Islands | coast | 15, 145.7 | sc | Marianas, Guam
# --- Africa -------------------------------------------------------------------------------------
mor | Morocco | coast | 32, -6 | sc | Tangier, Fez
alg | Algeria | coast | 34, 3 | sc | Algiers
tun | Tunis | coast | 35, 9.5 | sc | Tunisia
lib | Libya | coast | 30, 15 | sc | Tripoli
egy | Egypt | coast | 28, 29 | sc | Cairo
suz | Suez | canal | 30.5, 32.8 | | Suez Canal, Sinai
sud | Sudan | coast | 15.5, 31 | sc | Khartoum
eri | Eritrea | coast | 15, 39 | | Massawa
eth | Abyssinia | land | 9, 38.7 | sc | Ethiopia, Addis Ababa
som | Somaliland | coast | 5, 46 | | Somalia, Mogadishu
eaf | East Africa | coast | 0, 36 | sc | Kenya, Mombasa, Zanzibar
tng | Tanganyika | coast | -6, 35 | | German East Africa, Dar es Salaam
moz | Mozambique | coast | -18, 35 | | Lourenco Marques
rho | Rhodesia | land | -18, 28 | | Salisbury
nat | Natal | coast | -27, 30 | | Transvaal, Durban
cape | Cape Colony | coast | -32, 21 | sc | Cape Town, Cape of Good Hope
nmb | South West Africa | coast | -22, 16 | | Namibia, Windhoek
ang | Angola | coast | -12, 17 | sc | Luanda
cng | Congo | coast | -2, 22 | sc | Leopoldville
cmr | Cameroon | coast | 5, 12 | | Kamerun, Douala
cha | Chad | land | 14, 19 | | Fort Lamy
ngr | Nigeria | coast | 9, 7 | sc | Lagos
gld | Gold Coast | coast | 8, -2 | | Accra, Ashanti
sen | Senegal | coast | 13, -12 | | Dakar
sah | Sahara | coast | 23, -3 | | Rio de Oro, Timbuktu
mdg | Madagascar | coast | -19, 46.8 | sc | Tananarive
# --- North America ------------------------------------------------------------------------------
ala | Alaska | coast | 64, -152 | | Sitka, Nome
nwt | Northwest Territories | coast | 65, -115 | | NWT, Yukon
bc | British Columbia | coast | 53, -125 | sc | Vancouver
prr | Prairies | coast | 55, -100 | | Manitoba, Winnipeg
ont | Ontario | coast | 48, -84 | | Toronto
que | Quebec | coast | 50, -70 | sc | Montreal
nfl | Newfoundland | coast | 49, -56 | | St Johns
ore | Oregon | coast | 45, -120 | | Seattle, Portland
sfr | San Francisco | coast | 37, -121 | sc | California, Frisco
rky | Rockies | land | 41, -108 | | Denver, Rocky Mountains
pln | Plains | land | 41, -97 | | Kansas, Omaha
chc | Chicago | land | 41.9, -87.6 | sc | Illinois
nyk | New York | coast | 41.5, -75 | sc | NY
bos | Boston | coast | 43.5, -71 | | New England
was | Washington | coast | 37, -79 | | Virginia
fla | Florida | coast | 29, -82.5 | | Miami
nol | New Orleans | coast | 31, -90 | sc | Louisiana
tex | Texas | coast | 31, -99 | | Houston
mex | Mexico | coast | 23, -102 | sc | Mexico City
cam | Central America | coast | 14.5, -88 | sc | Guatemala
cub | Cuba | coast | 22, -79.5 | sc | Havana
his | Hispaniola | coast | 19, -71 | | Haiti, Santo Domingo
pan | Panama | canal | 9, -79.5 | | Panama Canal
# --- South America ------------------------------------------------------------------------------
col | Colombia | coast | 5, -74 | sc | Bogota
vza | Venezuela | coast | 8, -66 | sc | Caracas
gui | Guiana | coast | 4, -57 | | Guianas, Cayenne
ecu | Ecuador | coast | -1.5, -78.5 | | Quito
peru | Peru | coast | -10, -76 | sc | Lima
bol | Bolivia | land | -17, -65 | sc | La Paz
pgy | Paraguay | land | -23.4, -58 | sc | Asuncion
chl | Chile | coast | -33, -71 | sc | Santiago, Valparaiso
pat | Patagonia | coast | -46, -69 | | Tierra del Fuego
flk | Falkland Islands | coast | -51.7, -59 | | Falklands, Malvinas
bue | Buenos Aires | coast | -34.6, -59 | sc | Argentina, BA
cdb | Cordoba | land | -32, -65 | sc | Mendoza, Tucuman
bbl | Bahia Blanca | coast | -38.7, -62.5 | sc | Pampas
gch | Gran Chaco | land | -26, -61 | | Chaco, Corrientes
uru | Uruguay | coast | -33, -56 | sc | Montevideo
rgs | Rio Grande | coast | -29.5, -52 | | Rio Grande do Sul, Porto Alegre
sao | Sao Paulo | coast | -23, -47.5 | sc | Santos
rio | Rio de Janeiro | coast | -21, -43 | sc | Rio
mat | Mato Grosso | land | -13, -55 | | Cuiaba
bah | Bahia | coast | -11, -40 | sc | Salvador, Pernambuco
pra | Para | coast | -3, -49 | sc | Belem
ama | Amazonas | land | -4, -63 | | Amazon, Manaus
"""

# Where two coasts of one province are told apart (the rest of the board has one coast each).
COASTS = {
    "spa": {"nc": "mao gas por", "sc": "mao wes lyo mar por"},
    "stp": {"nc": "bar nwy ark", "sc": "bot fin lvn"},
    "bul": {"ec": "bla rum con", "sc": "aeg gre con"},
    "mex": {"ec": "gom tex cam/ec", "wc": "nep epa sfr cam/wc"},
    "cam": {"ec": "gom car", "wc": "epa"},
    "col": {"nc": "car vza", "wc": "epa ecu"},
}

# Army moves, each written once. The straits an army crosses without a fleet are marked: Spain
# to Morocco (rule 6.4), the Bosporus and the Sound (as on the standard board), Tsugaru
# (Tohoku-Hokkaido) and Shimonoseki (Osaka-Nagasaki).
ARMY = """
cly: edi lvp
edi: lvp yor
lvp: yor wal
yor: lon wal
wal: lon
bre: pic par gas
pic: par bur bel
par: bur gas
gas: bur mar spa
bur: mar bel ruh mun
mar: pie spa
spa: por mor
bel: hol ruh
hol: ruh kie
ruh: kie mun
kie: ber mun den
ber: pru sil mun
mun: sil boh tyr
pru: lvn war sil
sil: war gal boh
den: swe
swe: nwy fin
nwy: fin stp
fin: stp
boh: vie gal tyr
tyr: vie tri ven pie
vie: gal bud tri
gal: war ukr rum bud
bud: rum ser tri
tri: ven alb ser
ven: pie tus rom apu
pie: tus
tus: rom
rom: nap apu
apu: nap
alb: ser gre
ser: rum bul gre
gre: bul
bul: rum con
rum: ukr sev
con: ank smy
ank: smy arm
smy: arm syr
arm: sev syr mes per
syr: mes suz hej
sev: ukr mos ura
ukr: war mos
war: mos lvn
mos: stp lvn ura ark
lvn: stp
stp: ark
ark: ura oms
ura: oms tur
oms: tur yen sik mng
tur: per afg sik
yen: irk yak mng
irk: yak mng man amr
yak: amr kam chk
amr: kam vla man
kam: chk
vla: man kor
man: kor mng pek
mng: sik kan pek
sik: kan tib
kan: tib sze pek han
pek: han sha
han: sha can sze yun
sha: can
can: yun ton
sze: tib yun
yun: tib brm ton sia
tib: lah cal
per: mes afg snd
mes: hej arb
hej: arb yem suz
arb: yem omn
yem: omn
afg: lah snd
snd: lah bom
lah: del
del: bom hyd cal
bom: hyd mad
hyd: mad cal
mad: cal
cal: brm
brm: sia
sia: cmb mly ton
ton: cmb
ngu: pap
pth: nta adl
nta: adl bri
adl: bri syd mel
syd: mel bri
tok: osa toh
osa: nag toh
toh: hok
mor: alg sah
alg: tun sah
tun: lib sah
lib: egy sud cha sah
egy: suz sud
sud: eri eth eaf cng cha
eri: eth
eth: som eaf
som: eaf
eaf: tng cng
tng: moz rho cng
moz: rho nat
rho: nat cape nmb ang cng
nat: cape
cape: nmb
nmb: ang
ang: cng
cng: cmr cha
cmr: ngr cha
cha: ngr sah
ngr: gld sah
gld: sen sah
sen: sah
ala: bc nwt
bc: nwt prr ore
nwt: prr ont
prr: ont rky pln
ont: que chc nyk
que: nyk bos
ore: sfr rky
sfr: rky mex
rky: pln tex mex
pln: chc nol tex
chc: nyk was nol
nyk: bos was
was: fla nol
nol: tex fla
tex: mex
mex: cam
cam: pan
pan: col
col: vza ecu peru ama
vza: gui ama
gui: ama pra
ecu: peru
peru: bol chl ama
bol: ama mat chl gch
chl: cdb pat
bue: cdb bbl uru gch
cdb: bbl pat gch
bbl: pat
gch: rgs pgy
pgy: bol mat rgs
uru: rgs
rgs: sao mat
sao: rio mat
rio: bah mat
bah: pra mat
pra: ama mat
ama: mat
"""

# Fleet moves, each written once: seas to seas and coasts, coasts along a shared coastline.
# A canal lists the seas it joins and nothing else (rule 6.1); a polar cap lists the seas that
# touch it, which is where fleets may dump armies (6.2) and never move.
FLEET = """
nao: nwg iri mao lab wat
nwg: nth bar grs
bar: grs kar arc
grs: arc
kar: lap arc
lap: ess arc
ess: bea bes arc
bea: arc
baf: lab arc
lab: wat hud
wat: mao gom car ctl
gom: car
car: ctl
mao: iri eng wes ctl
ctl: gog sat
gog: sat
sat: rpl wed sos
rpl: dra wed
dra: wed ams sep ant
wed: sos ant
sos: sio mzc ant
sio: mzc wio cio eio gab tas ant
gab: tas
tas: cor sop ros
ros: sop ams ant
ams: sop sep ant
sop: sep cpa wpa cor
sep: epa
epa: nep cpa
nep: gak nop cpa
gak: nop bes
nop: bes nwp cpa
bes: nwp
okh: nwp soj
skh: okh soj
nwp: soj phs wpa cpa
soj: ecs
yel: ecs
ecs: phs scs
phs: scs wpa cls
wpa: cpa cor ban
scs: jvs
jvs: ban eio
cls: ban
ban: afs tms
afs: tms cor
tms: eio
eio: ans cio
ans: bob cio
bob: cio
cio: ars wio
ars: pgf gad wio
gad: red wio
wio: mzc
wes: lyo tys
lyo: tys
tys: ion
ion: adr aeg eas
aeg: eas bla
eng: iri nth
nth: ska hel nwg
bal: bot
kie: hel bal
suz: eas red
pan: car epa
cly: nao nwg edi lvp
edi: nwg nth yor
lvp: nao iri wal
yor: nth lon
wal: iri eng lon
lon: nth eng
ire: nao iri
ice: nao nwg grs
grn: nao lab baf grs
bre: eng mao pic gas
pic: eng bel
gas: mao
mar: lyo pie
por: mao
bel: eng nth hol
hol: nth hel
ber: bal pru
pru: bal lvn
den: nth ska hel bal swe
swe: ska bal bot nwy fin
nwy: nth nwg ska bar
fin: bot
lvn: bal bot
ark: bar kar oms
tri: adr ven alb
ven: adr apu
pie: lyo tus
tus: lyo tys rom
rom: tys nap
apu: adr ion nap
nap: tys ion
srd: lyo tys wes
alb: adr ion gre
gre: ion aeg
rum: bla sev
con: bla aeg ank smy
ank: bla arm
smy: aeg eas syr
arm: bla sev
syr: eas
sev: bla
mor: mao wes alg sah
sah: mao sen
alg: wes tun
tun: wes tys ion lib
lib: ion eas egy
egy: eas
sud: red eri
eri: red gad
som: gad wio ars eaf
eaf: wio tng
tng: wio mzc moz
moz: mzc nat
nat: mzc sos cape
cape: sos sat nmb
nmb: sat ang
ang: sat gog cng
cng: gog cmr
cmr: gog ngr
ngr: gog gld
gld: gog ctl sen
sen: ctl mao
mdg: wio mzc
hej: red yem
yem: red gad ars omn
omn: ars pgf arb
arb: pgf mes
mes: pgf per
per: pgf ars snd
snd: ars bom
bom: ars cio mad
mad: cio bob cal
cal: bob brm
cey: cio bob
brm: bob ans
mly: ans scs jvs sia
sia: scs cmb
cmb: scs ton
ton: scs can
sum: ans eio jvs
jav: jvs eio
bor: scs jvs cls
cel: cls ban jvs
phi: scs phs cls
ngu: ban afs wpa pap
pap: afs cor wpa
can: scs ecs sha
sha: ecs yel pek
pek: yel man
man: yel kor
kor: yel ecs soj vla
vla: soj amr
frm: ecs scs phs
amr: soj okh kam
kam: okh bes nwp chk
chk: bes ess yak
yak: ess lap yen
yen: lap kar oms
oms: kar
hok: soj okh nwp toh
toh: nwp soj tok osa
tok: nwp phs osa
osa: soj phs nag
nag: soj ecs phs
pth: eio sio gab tms nta adl
nta: tms afs bri
bri: afs cor syd
syd: cor tas mel
mel: tas gab adl
adl: gab
nzl: tas sop
fij: sop cor
sam: sop cpa
haw: cpa nop
mrn: phs wpa nwp
ala: bes gak bea nwt bc
nwt: bea
bc: gak nep ore
ore: nep sfr
sfr: nep
vza: car ctl gui
gui: ctl pra
ecu: epa sep peru
peru: sep chl
chl: sep dra pat
pat: dra rpl bbl
bue: rpl uru bbl
bbl: rpl
flk: rpl dra
uru: rpl rgs
rgs: rpl sao
sao: rpl sat rio
rio: sat bah
bah: sat ctl pra
pra: ctl
cub: gom car wat
his: car wat
fla: gom wat was nol
was: wat nyk
nyk: wat bos
bos: wat que
que: wat lab hud ont
ont: hud prr
prr: hud
nfl: lab wat nao
nol: gom tex
tex: gom
"""

MAP = {
    "name": "mercator-world",
    "title": "Mercator World",
    "calendar": "monthly",
    "start_phase": "JAN1901M",
    "victory_centres": 55,
    "two_way_centres": 72,
    "three_way_centres": 81,
    "canvas": [2000, 1400],
    "wraps": True,
    # Europe, drawn again at a larger scale under the map: its markers crowd at the canvas's
    # own scale (maps/mercator-world.md).
    "inset": [890, 200, 380, 360],
}

# name: (adjective, letter, homes, starting units, home provinces, special provinces, colonies,
# spare units). Home provinces are the rest of the home country (rule 5.3, 6.3); special
# provinces are rule 5.2's; colonies count as home for the GM's removals (rule 7).
POWERS: dict[str, dict[str, object]] = {
    "ENGLAND": {
        "adjective": "English",
        "letter": "E",
        "homes": "edi lon lvp",
        "units": "F lon, F edi, A lvp",
        "home_provinces": "cly wal yor",
        "builds": "nfl nat",
        "colonies": "cape eaf mly",
    },
    "FRANCE": {
        "adjective": "French",
        "letter": "F",
        "homes": "bre mar par",
        "units": "F bre, A par, A mar",
        "home_provinces": "bur gas pic",
        "builds": "sen ton",
        "colonies": "alg cmb mdg",
    },
    "GERMANY": {
        "adjective": "German",
        "letter": "G",
        "homes": "ber kie mun",
        "units": "F kie, A ber, A mun",
        "home_provinces": "pru ruh sil",
        "builds": "cmr tng",
        "colonies": "nmb",
        "spare": 1,
    },
    "ITALY": {
        "adjective": "Italian",
        "letter": "I",
        "homes": "nap rom ven",
        "units": "F nap, A rom, A ven",
        "home_provinces": "apu pie srd tus",
        "builds": "eri som",
    },
    "RUSSIA": {
        "adjective": "Russian",
        "letter": "R",
        "homes": "mos sev stp war",
        "units": "A mos, A war, F sev, F stp/sc",
        "home_provinces": "ark fin lvn ukr ura",
        "builds": "vla",
        "spare": 1,
    },
    "TURKEY": {
        "adjective": "Turkish",
        "letter": "T",
        "homes": "ank con smy",
        "units": "F ank, A con, A smy",
        "home_provinces": "arm syr",
        "builds": "hej",
    },
    "AMERICA": {
        "adjective": "American",
        "letter": "U",
        "homes": "chc nol nyk sfr",
        "units": "F nyk, F sfr, A chc, A nol",
        "home_provinces": "bos fla ore pln rky tex was",
        "builds": "ala pan",
        "colonies": "phi",
    },
    "BRAZIL": {
        "adjective": "Brazilian",
        "letter": "B",
        "homes": "bah pra rio sao",
        "units": "F rio, F bah, A sao, A pra",
        "home_provinces": "ama mat rgs",
        "builds": "gui",
    },
    "ARGENTINA": {
        "adjective": "Argentine",
        "letter": "P",
        "homes": "bbl bue cdb",
        "units": "F bue, F bbl, A cdb",
        "home_provinces": "gch pat",
        "builds": "flk",
    },
    "AUSTRALIA": {
        "adjective": "Australian",
        "letter": "A",
        "homes": "bri mel pth syd",
        "units": "F syd, F pth, A mel, A bri",
        "home_provinces": "adl nta",
        "builds": "pap",
    },
    "JAPAN": {
        "adjective": "Japanese",
        "letter": "J",
        "homes": "nag osa toh tok",
        "units": "F tok, F nag, A osa, A toh",
        "home_provinces": "hok",
        "builds": "frm",
    },
    "CHINA": {
        "adjective": "Chinese",
        "letter": "C",
        "homes": "can han pek sha",
        "units": "A pek, A han, F sha, F can",
        "home_provinces": "kan sik sze yun",
        "builds": "tib",
    },
    "INDIA": {
        "adjective": "Indian",
        "letter": "N",
        "homes": "bom cal del mad",
        "units": "A del, A cal, F bom, F mad",
        "home_provinces": "hyd lah snd",
        "builds": "omn",
    },
}
