// Generated from the entity registry by `npm run gen:client` (libs/client/src/codegen.ts). Do not edit.
import type { CreateModel, EntityJson, SearchBody, UpdateModel } from '@pitwall/contracts';
import { ClientBase, type ClientResult, type Include } from './client-base';

/** Typed client for the Pitwall API; every call returns `{ success, message, statusCode, returnValue }`. */
export class PitwallClient extends ClientBase {
  /** GET /Championships/{id} */
  getChampionshipById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Championships', id, parametersToInclude);
  }
  /** GET /Championships */
  getAllChampionships(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Championships', {}, parametersToInclude);
  }
  /** POST /Championships: the created Championship, all properties populated */
  addChampionship(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Championships', {}, model);
  }
  /** PUT /Championships/{id} */
  updateChampionship(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Championships', id, model);
  }
  /** DELETE /Championships/{id} */
  deleteChampionship(id: string): Promise<ClientResult<null>> {
    return this.remove('Championships', id);
  }
  /** GET /Events/{id} */
  getEventById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Events', id, parametersToInclude);
  }
  /** GET /Events?championshipId= */
  getAllEventsForChampionship(championshipId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Events', { championshipId }, parametersToInclude);
  }
  /** POST /Events: the created Event, all properties populated */
  addEvent(championshipId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Events', { championshipId }, model);
  }
  /** PUT /Events/{id} */
  updateEvent(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Events', id, model);
  }
  /** DELETE /Events/{id} */
  deleteEvent(id: string): Promise<ClientResult<null>> {
    return this.remove('Events', id);
  }
  /** GET /Sessions/{id} */
  getSessionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Sessions', id, parametersToInclude);
  }
  /** GET /Sessions?eventId= */
  getAllSessionsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Sessions', { eventId }, parametersToInclude);
  }
  /** POST /Sessions: the created Session, all properties populated */
  addSession(eventId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Sessions', { eventId }, model);
  }
  /** PUT /Sessions/{id} */
  updateSession(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Sessions', id, model);
  }
  /** DELETE /Sessions/{id} */
  deleteSession(id: string): Promise<ClientResult<null>> {
    return this.remove('Sessions', id);
  }
  /** GET /Cars/{id} */
  getCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Cars', id, parametersToInclude);
  }
  /** GET /Cars */
  getAllCars(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Cars', {}, parametersToInclude);
  }
  /** POST /Cars: the created Car, all properties populated */
  addCar(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Cars', {}, model);
  }
  /** PUT /Cars/{id} */
  updateCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Cars', id, model);
  }
  /** DELETE /Cars/{id} */
  deleteCar(id: string): Promise<ClientResult<null>> {
    return this.remove('Cars', id);
  }
  /** GET /EventCars/{id} */
  getEventCarById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('EventCars', id, parametersToInclude);
  }
  /** GET /EventCars?eventId=&carId= */
  getAllEventCarsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { eventId, carId }, parametersToInclude);
  }
  /** GET /EventCars?eventId= */
  getAllEventCarsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { eventId }, parametersToInclude);
  }
  /** GET /EventCars?carId= */
  getAllEventCarsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCars', { carId }, parametersToInclude);
  }
  /** POST /EventCars: the created EventCar, all properties populated */
  addEventCar(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('EventCars', { eventId, carId }, model);
  }
  /** PUT /EventCars/{id} */
  updateEventCar(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('EventCars', id, model);
  }
  /** DELETE /EventCars/{id} */
  deleteEventCar(id: string): Promise<ClientResult<null>> {
    return this.remove('EventCars', id);
  }
  /** GET /Drivers/{id} */
  getDriverById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Drivers', id, parametersToInclude);
  }
  /** GET /Drivers */
  getAllDrivers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Drivers', {}, parametersToInclude);
  }
  /** POST /Drivers: the created Driver, all properties populated */
  addDriver(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Drivers', {}, model);
  }
  /** PUT /Drivers/{id} */
  updateDriver(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Drivers', id, model);
  }
  /** DELETE /Drivers/{id} */
  deleteDriver(id: string): Promise<ClientResult<null>> {
    return this.remove('Drivers', id);
  }
  /** GET /Tracks/{id} */
  getTrackById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Tracks', id, parametersToInclude);
  }
  /** GET /Tracks */
  getAllTracks(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Tracks', {}, parametersToInclude);
  }
  /** POST /Tracks: the created Track, all properties populated */
  addTrack(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Tracks', {}, model);
  }
  /** PUT /Tracks/{id} */
  updateTrack(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Tracks', id, model);
  }
  /** DELETE /Tracks/{id} */
  deleteTrack(id: string): Promise<ClientResult<null>> {
    return this.remove('Tracks', id);
  }
  /** GET /TrackConfigurations/{id} */
  getTrackConfigurationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackConfigurations', id, parametersToInclude);
  }
  /** GET /TrackConfigurations?trackId= */
  getAllTrackConfigurationsForTrack(trackId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackConfigurations', { trackId }, parametersToInclude);
  }
  /** POST /TrackConfigurations: the created TrackConfiguration, all properties populated */
  addTrackConfiguration(trackId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackConfigurations', { trackId }, model);
  }
  /** PUT /TrackConfigurations/{id} */
  updateTrackConfiguration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackConfigurations', id, model);
  }
  /** DELETE /TrackConfigurations/{id} */
  deleteTrackConfiguration(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackConfigurations', id);
  }
  /** GET /TrackSectorDefinitions/{id} */
  getTrackSectorDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackSectorDefinitions', id, parametersToInclude);
  }
  /** GET /TrackSectorDefinitions?trackConfigurationId= */
  getAllTrackSectorDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackSectorDefinitions', { trackConfigurationId }, parametersToInclude);
  }
  /** POST /TrackSectorDefinitions: the created TrackSectorDefinition, all properties populated */
  addTrackSectorDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackSectorDefinitions', { trackConfigurationId }, model);
  }
  /** PUT /TrackSectorDefinitions/{id} */
  updateTrackSectorDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackSectorDefinitions', id, model);
  }
  /** DELETE /TrackSectorDefinitions/{id} */
  deleteTrackSectorDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackSectorDefinitions', id);
  }
  /** GET /TrackSpeedTrapDefinitions/{id} */
  getTrackSpeedTrapDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TrackSpeedTrapDefinitions', id, parametersToInclude);
  }
  /** GET /TrackSpeedTrapDefinitions?trackConfigurationId= */
  getAllTrackSpeedTrapDefinitionsForTrackConfiguration(trackConfigurationId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TrackSpeedTrapDefinitions', { trackConfigurationId }, parametersToInclude);
  }
  /** POST /TrackSpeedTrapDefinitions: the created TrackSpeedTrapDefinition, all properties populated */
  addTrackSpeedTrapDefinition(trackConfigurationId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TrackSpeedTrapDefinitions', { trackConfigurationId }, model);
  }
  /** PUT /TrackSpeedTrapDefinitions/{id} */
  updateTrackSpeedTrapDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TrackSpeedTrapDefinitions', id, model);
  }
  /** DELETE /TrackSpeedTrapDefinitions/{id} */
  deleteTrackSpeedTrapDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('TrackSpeedTrapDefinitions', id);
  }
  /** GET /Setups/{id} */
  getSetupById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Setups', id, parametersToInclude);
  }
  /** GET /Setups?eventId=&carId= */
  getAllSetupsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { eventId, carId }, parametersToInclude);
  }
  /** GET /Setups?eventId= */
  getAllSetupsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { eventId }, parametersToInclude);
  }
  /** GET /Setups?carId= */
  getAllSetupsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Setups', { carId }, parametersToInclude);
  }
  /** POST /Setups: the created Setup, all properties populated */
  addSetup(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Setups', { eventId, carId }, model);
  }
  /** PUT /Setups/{id} */
  updateSetup(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Setups', id, model);
  }
  /** DELETE /Setups/{id} */
  deleteSetup(id: string): Promise<ClientResult<null>> {
    return this.remove('Setups', id);
  }
  /** GET /EventCarDatas/{id} */
  getEventCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('EventCarDatas', id, parametersToInclude);
  }
  /** GET /EventCarDatas?eventId=&carId= */
  getAllEventCarDatasForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { eventId, carId }, parametersToInclude);
  }
  /** GET /EventCarDatas?eventId= */
  getAllEventCarDatasForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { eventId }, parametersToInclude);
  }
  /** GET /EventCarDatas?carId= */
  getAllEventCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('EventCarDatas', { carId }, parametersToInclude);
  }
  /** POST /EventCarDatas: the created EventCarData, all properties populated */
  addEventCarData(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('EventCarDatas', { eventId, carId }, model);
  }
  /** PUT /EventCarDatas/{id} */
  updateEventCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('EventCarDatas', id, model);
  }
  /** DELETE /EventCarDatas/{id} */
  deleteEventCarData(id: string): Promise<ClientResult<null>> {
    return this.remove('EventCarDatas', id);
  }
  /** GET /Tyres/{id} */
  getTyreById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Tyres', id, parametersToInclude);
  }
  /** GET /Tyres */
  getAllTyres(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Tyres', {}, parametersToInclude);
  }
  /** POST /Tyres: the created Tyre, all properties populated */
  addTyre(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Tyres', {}, model);
  }
  /** PUT /Tyres/{id} */
  updateTyre(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Tyres', id, model);
  }
  /** DELETE /Tyres/{id} */
  deleteTyre(id: string): Promise<ClientResult<null>> {
    return this.remove('Tyres', id);
  }
  /** POST /Tyres/Search (modes 0-4) */
  searchForTyres(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('Tyres', body, parametersToInclude);
  }
  /** GET /TyreWearMeasurements/{id} */
  getTyreWearMeasurementById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreWearMeasurements', id, parametersToInclude);
  }
  /** GET /TyreWearMeasurements?tyreId= */
  getAllTyreWearMeasurementsForTyre(tyreId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearMeasurements', { tyreId }, parametersToInclude);
  }
  /** POST /TyreWearMeasurements: the created TyreWearMeasurement, all properties populated */
  addTyreWearMeasurement(tyreId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreWearMeasurements', { tyreId }, model);
  }
  /** PUT /TyreWearMeasurements/{id} */
  updateTyreWearMeasurement(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreWearMeasurements', id, model);
  }
  /** DELETE /TyreWearMeasurements/{id} */
  deleteTyreWearMeasurement(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreWearMeasurements', id);
  }
  /** GET /IssueListIssues/{id} */
  getIssueListIssueById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('IssueListIssues', id, parametersToInclude);
  }
  /** GET /IssueListIssues */
  getAllIssueListIssues(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('IssueListIssues', {}, parametersToInclude);
  }
  /** POST /IssueListIssues: the created IssueListIssue, all properties populated */
  addIssueListIssue(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('IssueListIssues', {}, model);
  }
  /** PUT /IssueListIssues/{id} */
  updateIssueListIssue(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('IssueListIssues', id, model);
  }
  /** DELETE /IssueListIssues/{id} */
  deleteIssueListIssue(id: string): Promise<ClientResult<null>> {
    return this.remove('IssueListIssues', id);
  }
  /** POST /IssueListIssues/Search (modes 0-4) */
  searchForIssueListIssues(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('IssueListIssues', body, parametersToInclude);
  }
  /** GET /AssemblyIterations/{id} */
  getAssemblyIterationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('AssemblyIterations', id, parametersToInclude);
  }
  /** GET /AssemblyIterations */
  getAllAssemblyIterations(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('AssemblyIterations', {}, parametersToInclude);
  }
  /** POST /AssemblyIterations: the created AssemblyIteration, all properties populated */
  addAssemblyIteration(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('AssemblyIterations', {}, model);
  }
  /** PUT /AssemblyIterations/{id} */
  updateAssemblyIteration(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('AssemblyIterations', id, model);
  }
  /** DELETE /AssemblyIterations/{id} */
  deleteAssemblyIteration(id: string): Promise<ClientResult<null>> {
    return this.remove('AssemblyIterations', id);
  }
  /** POST /AssemblyIterations/Search (modes 0-4) */
  searchForAssemblyIterations(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('AssemblyIterations', body, parametersToInclude);
  }
  /** GET /RunSheets/{id} */
  getRunSheetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('RunSheets', id, parametersToInclude);
  }
  /** GET /RunSheets?sessionId=&carId= */
  getAllRunSheetsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { sessionId, carId }, parametersToInclude);
  }
  /** GET /RunSheets?sessionId= */
  getAllRunSheetsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { sessionId }, parametersToInclude);
  }
  /** GET /RunSheets?carId= */
  getAllRunSheetsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunSheets', { carId }, parametersToInclude);
  }
  /** POST /RunSheets: the created RunSheet, all properties populated */
  addRunSheet(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('RunSheets', { sessionId, carId }, model);
  }
  /** PUT /RunSheets/{id} */
  updateRunSheet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('RunSheets', id, model);
  }
  /** DELETE /RunSheets/{id} */
  deleteRunSheet(id: string): Promise<ClientResult<null>> {
    return this.remove('RunSheets', id);
  }
  /** GET /Laps/{id} */
  getLapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Laps', id, parametersToInclude);
  }
  /** GET /Laps?runSheetId= */
  getAllLapsForRunSheet(runSheetId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Laps', { runSheetId }, parametersToInclude);
  }
  /** POST /Laps: the created Lap, all properties populated */
  addLap(runSheetId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Laps', { runSheetId }, model);
  }
  /** PUT /Laps/{id} */
  updateLap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Laps', id, model);
  }
  /** DELETE /Laps/{id} */
  deleteLap(id: string): Promise<ClientResult<null>> {
    return this.remove('Laps', id);
  }
  /** GET /LapSectors/{id} */
  getLapSectorById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapSectors', id, parametersToInclude);
  }
  /** GET /LapSectors?lapId= */
  getAllLapSectorsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapSectors', { lapId }, parametersToInclude);
  }
  /** POST /LapSectors: the created LapSector, all properties populated */
  addLapSector(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapSectors', { lapId }, model);
  }
  /** PUT /LapSectors/{id} */
  updateLapSector(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapSectors', id, model);
  }
  /** DELETE /LapSectors/{id} */
  deleteLapSector(id: string): Promise<ClientResult<null>> {
    return this.remove('LapSectors', id);
  }
  /** GET /LapSpeedTraps/{id} */
  getLapSpeedTrapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapSpeedTraps', id, parametersToInclude);
  }
  /** GET /LapSpeedTraps?lapId= */
  getAllLapSpeedTrapsForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapSpeedTraps', { lapId }, parametersToInclude);
  }
  /** POST /LapSpeedTraps: the created LapSpeedTrap, all properties populated */
  addLapSpeedTrap(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapSpeedTraps', { lapId }, model);
  }
  /** PUT /LapSpeedTraps/{id} */
  updateLapSpeedTrap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapSpeedTraps', id, model);
  }
  /** DELETE /LapSpeedTraps/{id} */
  deleteLapSpeedTrap(id: string): Promise<ClientResult<null>> {
    return this.remove('LapSpeedTraps', id);
  }
  /** GET /SessionCarDatas/{id} */
  getSessionCarDataById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionCarDatas', id, parametersToInclude);
  }
  /** GET /SessionCarDatas?sessionId=&carId= */
  getAllSessionCarDatasForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { sessionId, carId }, parametersToInclude);
  }
  /** GET /SessionCarDatas?sessionId= */
  getAllSessionCarDatasForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { sessionId }, parametersToInclude);
  }
  /** GET /SessionCarDatas?carId= */
  getAllSessionCarDatasForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionCarDatas', { carId }, parametersToInclude);
  }
  /** POST /SessionCarDatas: the created SessionCarData, all properties populated */
  addSessionCarData(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionCarDatas', { sessionId, carId }, model);
  }
  /** PUT /SessionCarDatas/{id} */
  updateSessionCarData(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionCarDatas', id, model);
  }
  /** DELETE /SessionCarDatas/{id} */
  deleteSessionCarData(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionCarDatas', id);
  }
  /** GET /ExternalSimulationProfiles/{id} */
  getExternalSimulationProfileById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('ExternalSimulationProfiles', id, parametersToInclude);
  }
  /** GET /ExternalSimulationProfiles */
  getAllExternalSimulationProfiles(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ExternalSimulationProfiles', {}, parametersToInclude);
  }
  /** POST /ExternalSimulationProfiles: the created ExternalSimulationProfile, all properties populated */
  addExternalSimulationProfile(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('ExternalSimulationProfiles', {}, model);
  }
  /** PUT /ExternalSimulationProfiles/{id} */
  updateExternalSimulationProfile(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('ExternalSimulationProfiles', id, model);
  }
  /** DELETE /ExternalSimulationProfiles/{id} */
  deleteExternalSimulationProfile(id: string): Promise<ClientResult<null>> {
    return this.remove('ExternalSimulationProfiles', id);
  }
  /** GET /ParameterDefinitions/{id} */
  getParameterDefinitionById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('ParameterDefinitions', id, parametersToInclude);
  }
  /** GET /ParameterDefinitions */
  getAllParameterDefinitions(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ParameterDefinitions', {}, parametersToInclude);
  }
  /** POST /ParameterDefinitions: the created ParameterDefinition, all properties populated */
  addParameterDefinition(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('ParameterDefinitions', {}, model);
  }
  /** PUT /ParameterDefinitions/{id} */
  updateParameterDefinition(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('ParameterDefinitions', id, model);
  }
  /** DELETE /ParameterDefinitions/{id} */
  deleteParameterDefinition(id: string): Promise<ClientResult<null>> {
    return this.remove('ParameterDefinitions', id);
  }
  /** GET /AmbientMeasurements/{id} */
  getAmbientMeasurementById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('AmbientMeasurements', id, parametersToInclude);
  }
  /** GET /AmbientMeasurements?eventId= */
  getAllAmbientMeasurementsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('AmbientMeasurements', { eventId }, parametersToInclude);
  }
  /** POST /AmbientMeasurements: the created AmbientMeasurement, all properties populated */
  addAmbientMeasurement(eventId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('AmbientMeasurements', { eventId }, model);
  }
  /** PUT /AmbientMeasurements/{id} */
  updateAmbientMeasurement(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('AmbientMeasurements', id, model);
  }
  /** DELETE /AmbientMeasurements/{id} */
  deleteAmbientMeasurement(id: string): Promise<ClientResult<null>> {
    return this.remove('AmbientMeasurements', id);
  }
  /** GET /Teams/{id} */
  getTeamById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Teams', id, parametersToInclude);
  }
  /** GET /Teams */
  getAllTeams(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Teams', {}, parametersToInclude);
  }
  /** POST /Teams: the created Team, all properties populated */
  addTeam(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Teams', {}, model);
  }
  /** PUT /Teams/{id} */
  updateTeam(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Teams', id, model);
  }
  /** DELETE /Teams/{id} */
  deleteTeam(id: string): Promise<ClientResult<null>> {
    return this.remove('Teams', id);
  }
  /** GET /CarManufacturers/{id} */
  getCarManufacturerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('CarManufacturers', id, parametersToInclude);
  }
  /** GET /CarManufacturers */
  getAllCarManufacturers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('CarManufacturers', {}, parametersToInclude);
  }
  /** POST /CarManufacturers: the created CarManufacturer, all properties populated */
  addCarManufacturer(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('CarManufacturers', {}, model);
  }
  /** PUT /CarManufacturers/{id} */
  updateCarManufacturer(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('CarManufacturers', id, model);
  }
  /** DELETE /CarManufacturers/{id} */
  deleteCarManufacturer(id: string): Promise<ClientResult<null>> {
    return this.remove('CarManufacturers', id);
  }
  /** GET /Categories/{id} */
  getCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Categories', id, parametersToInclude);
  }
  /** GET /Categories */
  getAllCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Categories', {}, parametersToInclude);
  }
  /** POST /Categories: the created Category, all properties populated */
  addCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Categories', {}, model);
  }
  /** PUT /Categories/{id} */
  updateCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Categories', id, model);
  }
  /** DELETE /Categories/{id} */
  deleteCategory(id: string): Promise<ClientResult<null>> {
    return this.remove('Categories', id);
  }
  /** GET /SessionTypes/{id} */
  getSessionTypeById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionTypes', id, parametersToInclude);
  }
  /** GET /SessionTypes */
  getAllSessionTypes(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionTypes', {}, parametersToInclude);
  }
  /** POST /SessionTypes: the created SessionType, all properties populated */
  addSessionType(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionTypes', {}, model);
  }
  /** PUT /SessionTypes/{id} */
  updateSessionType(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionTypes', id, model);
  }
  /** DELETE /SessionTypes/{id} */
  deleteSessionType(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionTypes', id);
  }
  /** GET /SessionStatuses/{id} */
  getSessionStatusById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionStatuses', id, parametersToInclude);
  }
  /** GET /SessionStatuses */
  getAllSessionStatuses(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionStatuses', {}, parametersToInclude);
  }
  /** POST /SessionStatuses: the created SessionStatus, all properties populated */
  addSessionStatus(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionStatuses', {}, model);
  }
  /** PUT /SessionStatuses/{id} */
  updateSessionStatus(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionStatuses', id, model);
  }
  /** DELETE /SessionStatuses/{id} */
  deleteSessionStatus(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionStatuses', id);
  }
  /** GET /PartCategories/{id} */
  getPartCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('PartCategories', id, parametersToInclude);
  }
  /** GET /PartCategories */
  getAllPartCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PartCategories', {}, parametersToInclude);
  }
  /** POST /PartCategories: the created PartCategory, all properties populated */
  addPartCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('PartCategories', {}, model);
  }
  /** PUT /PartCategories/{id} */
  updatePartCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('PartCategories', id, model);
  }
  /** DELETE /PartCategories/{id} */
  deletePartCategory(id: string): Promise<ClientResult<null>> {
    return this.remove('PartCategories', id);
  }
  /** GET /IssueListCategories/{id} */
  getIssueListCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('IssueListCategories', id, parametersToInclude);
  }
  /** GET /IssueListCategories */
  getAllIssueListCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('IssueListCategories', {}, parametersToInclude);
  }
  /** POST /IssueListCategories: the created IssueListCategory, all properties populated */
  addIssueListCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('IssueListCategories', {}, model);
  }
  /** PUT /IssueListCategories/{id} */
  updateIssueListCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('IssueListCategories', id, model);
  }
  /** DELETE /IssueListCategories/{id} */
  deleteIssueListCategory(id: string): Promise<ClientResult<null>> {
    return this.remove('IssueListCategories', id);
  }
  /** GET /JobListCategories/{id} */
  getJobListCategoryById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('JobListCategories', id, parametersToInclude);
  }
  /** GET /JobListCategories */
  getAllJobListCategories(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('JobListCategories', {}, parametersToInclude);
  }
  /** POST /JobListCategories: the created JobListCategory, all properties populated */
  addJobListCategory(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('JobListCategories', {}, model);
  }
  /** PUT /JobListCategories/{id} */
  updateJobListCategory(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('JobListCategories', id, model);
  }
  /** DELETE /JobListCategories/{id} */
  deleteJobListCategory(id: string): Promise<ClientResult<null>> {
    return this.remove('JobListCategories', id);
  }
  /** GET /JobListTemplates/{id} */
  getJobListTemplateById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('JobListTemplates', id, parametersToInclude);
  }
  /** GET /JobListTemplates */
  getAllJobListTemplates(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('JobListTemplates', {}, parametersToInclude);
  }
  /** POST /JobListTemplates: the created JobListTemplate, all properties populated */
  addJobListTemplate(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('JobListTemplates', {}, model);
  }
  /** PUT /JobListTemplates/{id} */
  updateJobListTemplate(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('JobListTemplates', id, model);
  }
  /** DELETE /JobListTemplates/{id} */
  deleteJobListTemplate(id: string): Promise<ClientResult<null>> {
    return this.remove('JobListTemplates', id);
  }
  /** GET /NamedAssemblies/{id} */
  getNamedAssemblyById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('NamedAssemblies', id, parametersToInclude);
  }
  /** GET /NamedAssemblies */
  getAllNamedAssemblies(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('NamedAssemblies', {}, parametersToInclude);
  }
  /** POST /NamedAssemblies: the created NamedAssembly, all properties populated */
  addNamedAssembly(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('NamedAssemblies', {}, model);
  }
  /** PUT /NamedAssemblies/{id} */
  updateNamedAssembly(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('NamedAssemblies', id, model);
  }
  /** DELETE /NamedAssemblies/{id} */
  deleteNamedAssembly(id: string): Promise<ClientResult<null>> {
    return this.remove('NamedAssemblies', id);
  }
  /** GET /CarModels/{id} */
  getCarModelById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('CarModels', id, parametersToInclude);
  }
  /** GET /CarModels */
  getAllCarModels(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('CarModels', {}, parametersToInclude);
  }
  /** POST /CarModels: the created CarModel, all properties populated */
  addCarModel(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('CarModels', {}, model);
  }
  /** PUT /CarModels/{id} */
  updateCarModel(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('CarModels', id, model);
  }
  /** DELETE /CarModels/{id} */
  deleteCarModel(id: string): Promise<ClientResult<null>> {
    return this.remove('CarModels', id);
  }
  /** GET /Parts/{id} */
  getPartById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Parts', id, parametersToInclude);
  }
  /** GET /Parts */
  getAllParts(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Parts', {}, parametersToInclude);
  }
  /** POST /Parts: the created Part, all properties populated */
  addPart(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Parts', {}, model);
  }
  /** PUT /Parts/{id} */
  updatePart(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Parts', id, model);
  }
  /** DELETE /Parts/{id} */
  deletePart(id: string): Promise<ClientResult<null>> {
    return this.remove('Parts', id);
  }
  /** GET /PartItems/{id} */
  getPartItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('PartItems', id, parametersToInclude);
  }
  /** GET /PartItems?partId= */
  getAllPartItemsForPart(partId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PartItems', { partId }, parametersToInclude);
  }
  /** POST /PartItems: the created PartItem, all properties populated */
  addPartItem(partId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('PartItems', { partId }, model);
  }
  /** PUT /PartItems/{id} */
  updatePartItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('PartItems', id, model);
  }
  /** DELETE /PartItems/{id} */
  deletePartItem(id: string): Promise<ClientResult<null>> {
    return this.remove('PartItems', id);
  }
  /** GET /TyreSpecifications/{id} */
  getTyreSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreSpecifications', id, parametersToInclude);
  }
  /** GET /TyreSpecifications */
  getAllTyreSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreSpecifications', {}, parametersToInclude);
  }
  /** POST /TyreSpecifications: the created TyreSpecification, all properties populated */
  addTyreSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreSpecifications', {}, model);
  }
  /** PUT /TyreSpecifications/{id} */
  updateTyreSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreSpecifications', id, model);
  }
  /** DELETE /TyreSpecifications/{id} */
  deleteTyreSpecification(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreSpecifications', id);
  }
  /** GET /BrakeDiscSpecifications/{id} */
  getBrakeDiscSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('BrakeDiscSpecifications', id, parametersToInclude);
  }
  /** GET /BrakeDiscSpecifications */
  getAllBrakeDiscSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('BrakeDiscSpecifications', {}, parametersToInclude);
  }
  /** POST /BrakeDiscSpecifications: the created BrakeDiscSpecification, all properties populated */
  addBrakeDiscSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('BrakeDiscSpecifications', {}, model);
  }
  /** PUT /BrakeDiscSpecifications/{id} */
  updateBrakeDiscSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('BrakeDiscSpecifications', id, model);
  }
  /** DELETE /BrakeDiscSpecifications/{id} */
  deleteBrakeDiscSpecification(id: string): Promise<ClientResult<null>> {
    return this.remove('BrakeDiscSpecifications', id);
  }
  /** GET /BrakePadSpecifications/{id} */
  getBrakePadSpecificationById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('BrakePadSpecifications', id, parametersToInclude);
  }
  /** GET /BrakePadSpecifications */
  getAllBrakePadSpecifications(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('BrakePadSpecifications', {}, parametersToInclude);
  }
  /** POST /BrakePadSpecifications: the created BrakePadSpecification, all properties populated */
  addBrakePadSpecification(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('BrakePadSpecifications', {}, model);
  }
  /** PUT /BrakePadSpecifications/{id} */
  updateBrakePadSpecification(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('BrakePadSpecifications', id, model);
  }
  /** DELETE /BrakePadSpecifications/{id} */
  deleteBrakePadSpecification(id: string): Promise<ClientResult<null>> {
    return this.remove('BrakePadSpecifications', id);
  }
  /** GET /TyreSets/{id} */
  getTyreSetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreSets', id, parametersToInclude);
  }
  /** GET /TyreSets */
  getAllTyreSets(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreSets', {}, parametersToInclude);
  }
  /** POST /TyreSets: the created TyreSet, all properties populated */
  addTyreSet(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreSets', {}, model);
  }
  /** PUT /TyreSets/{id} */
  updateTyreSet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreSets', id, model);
  }
  /** DELETE /TyreSets/{id} */
  deleteTyreSet(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreSets', id);
  }
  /** POST /TyreSets/Search (modes 0-4) */
  searchForTyreSets(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('TyreSets', body, parametersToInclude);
  }
  /** GET /BrakeDiscs/{id} */
  getBrakeDiscById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('BrakeDiscs', id, parametersToInclude);
  }
  /** GET /BrakeDiscs */
  getAllBrakeDiscs(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('BrakeDiscs', {}, parametersToInclude);
  }
  /** POST /BrakeDiscs: the created BrakeDisc, all properties populated */
  addBrakeDisc(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('BrakeDiscs', {}, model);
  }
  /** PUT /BrakeDiscs/{id} */
  updateBrakeDisc(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('BrakeDiscs', id, model);
  }
  /** DELETE /BrakeDiscs/{id} */
  deleteBrakeDisc(id: string): Promise<ClientResult<null>> {
    return this.remove('BrakeDiscs', id);
  }
  /** POST /BrakeDiscs/Search (modes 0-4) */
  searchForBrakeDiscs(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('BrakeDiscs', body, parametersToInclude);
  }
  /** GET /BrakePads/{id} */
  getBrakePadById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('BrakePads', id, parametersToInclude);
  }
  /** GET /BrakePads */
  getAllBrakePads(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('BrakePads', {}, parametersToInclude);
  }
  /** POST /BrakePads: the created BrakePad, all properties populated */
  addBrakePad(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('BrakePads', {}, model);
  }
  /** PUT /BrakePads/{id} */
  updateBrakePad(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('BrakePads', id, model);
  }
  /** DELETE /BrakePads/{id} */
  deleteBrakePad(id: string): Promise<ClientResult<null>> {
    return this.remove('BrakePads', id);
  }
  /** POST /BrakePads/Search (modes 0-4) */
  searchForBrakePads(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('BrakePads', body, parametersToInclude);
  }
  /** GET /BrakeSets/{id} */
  getBrakeSetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('BrakeSets', id, parametersToInclude);
  }
  /** GET /BrakeSets */
  getAllBrakeSets(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('BrakeSets', {}, parametersToInclude);
  }
  /** POST /BrakeSets: the created BrakeSet, all properties populated */
  addBrakeSet(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('BrakeSets', {}, model);
  }
  /** PUT /BrakeSets/{id} */
  updateBrakeSet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('BrakeSets', id, model);
  }
  /** DELETE /BrakeSets/{id} */
  deleteBrakeSet(id: string): Promise<ClientResult<null>> {
    return this.remove('BrakeSets', id);
  }
  /** POST /BrakeSets/Search (modes 0-4) */
  searchForBrakeSets(body: SearchBody, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.search('BrakeSets', body, parametersToInclude);
  }
  /** GET /TyreSetPressureAdjustments/{id} */
  getTyreSetPressureAdjustmentById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreSetPressureAdjustments', id, parametersToInclude);
  }
  /** GET /TyreSetPressureAdjustments?tyreSetId= */
  getAllTyreSetPressureAdjustmentsForTyreSet(tyreSetId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreSetPressureAdjustments', { tyreSetId }, parametersToInclude);
  }
  /** POST /TyreSetPressureAdjustments: the created TyreSetPressureAdjustment, all properties populated */
  addTyreSetPressureAdjustment(tyreSetId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreSetPressureAdjustments', { tyreSetId }, model);
  }
  /** PUT /TyreSetPressureAdjustments/{id} */
  updateTyreSetPressureAdjustment(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreSetPressureAdjustments', id, model);
  }
  /** DELETE /TyreSetPressureAdjustments/{id} */
  deleteTyreSetPressureAdjustment(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreSetPressureAdjustments', id);
  }
  /** GET /TyreWearSheets/{id} */
  getTyreWearSheetById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreWearSheets', id, parametersToInclude);
  }
  /** GET /TyreWearSheets?eventId=&carId= */
  getAllTyreWearSheetsForEventCar(eventId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearSheets', { eventId, carId }, parametersToInclude);
  }
  /** GET /TyreWearSheets?eventId= */
  getAllTyreWearSheetsForEvent(eventId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearSheets', { eventId }, parametersToInclude);
  }
  /** GET /TyreWearSheets?carId= */
  getAllTyreWearSheetsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearSheets', { carId }, parametersToInclude);
  }
  /** POST /TyreWearSheets: the created TyreWearSheet, all properties populated */
  addTyreWearSheet(eventId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreWearSheets', { eventId, carId }, model);
  }
  /** PUT /TyreWearSheets/{id} */
  updateTyreWearSheet(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreWearSheets', id, model);
  }
  /** DELETE /TyreWearSheets/{id} */
  deleteTyreWearSheet(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreWearSheets', id);
  }
  /** GET /TyreWearMeasurementItems/{id} */
  getTyreWearMeasurementItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('TyreWearMeasurementItems', id, parametersToInclude);
  }
  /** GET /TyreWearMeasurementItems?tyreWearMeasurementId= */
  getAllTyreWearMeasurementItemsForTyreWearMeasurement(tyreWearMeasurementId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('TyreWearMeasurementItems', { tyreWearMeasurementId }, parametersToInclude);
  }
  /** POST /TyreWearMeasurementItems: the created TyreWearMeasurementItem, all properties populated */
  addTyreWearMeasurementItem(tyreWearMeasurementId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('TyreWearMeasurementItems', { tyreWearMeasurementId }, model);
  }
  /** PUT /TyreWearMeasurementItems/{id} */
  updateTyreWearMeasurementItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('TyreWearMeasurementItems', id, model);
  }
  /** DELETE /TyreWearMeasurementItems/{id} */
  deleteTyreWearMeasurementItem(id: string): Promise<ClientResult<null>> {
    return this.remove('TyreWearMeasurementItems', id);
  }
  /** GET /ReferencePressureRuns/{id} */
  getReferencePressureRunById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('ReferencePressureRuns', id, parametersToInclude);
  }
  /** GET /ReferencePressureRuns?sessionId=&carId= */
  getAllReferencePressureRunsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ReferencePressureRuns', { sessionId, carId }, parametersToInclude);
  }
  /** GET /ReferencePressureRuns?sessionId= */
  getAllReferencePressureRunsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ReferencePressureRuns', { sessionId }, parametersToInclude);
  }
  /** GET /ReferencePressureRuns?carId= */
  getAllReferencePressureRunsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('ReferencePressureRuns', { carId }, parametersToInclude);
  }
  /** POST /ReferencePressureRuns: the created ReferencePressureRun, all properties populated */
  addReferencePressureRun(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('ReferencePressureRuns', { sessionId, carId }, model);
  }
  /** PUT /ReferencePressureRuns/{id} */
  updateReferencePressureRun(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('ReferencePressureRuns', id, model);
  }
  /** DELETE /ReferencePressureRuns/{id} */
  deleteReferencePressureRun(id: string): Promise<ClientResult<null>> {
    return this.remove('ReferencePressureRuns', id);
  }
  /** GET /PlannedRuns/{id} */
  getPlannedRunById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('PlannedRuns', id, parametersToInclude);
  }
  /** GET /PlannedRuns?sessionId=&carId= */
  getAllPlannedRunsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PlannedRuns', { sessionId, carId }, parametersToInclude);
  }
  /** GET /PlannedRuns?sessionId= */
  getAllPlannedRunsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PlannedRuns', { sessionId }, parametersToInclude);
  }
  /** GET /PlannedRuns?carId= */
  getAllPlannedRunsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PlannedRuns', { carId }, parametersToInclude);
  }
  /** POST /PlannedRuns: the created PlannedRun, all properties populated */
  addPlannedRun(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('PlannedRuns', { sessionId, carId }, model);
  }
  /** PUT /PlannedRuns/{id} */
  updatePlannedRun(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('PlannedRuns', id, model);
  }
  /** DELETE /PlannedRuns/{id} */
  deletePlannedRun(id: string): Promise<ClientResult<null>> {
    return this.remove('PlannedRuns', id);
  }
  /** GET /RunPlans/{id} */
  getRunPlanById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('RunPlans', id, parametersToInclude);
  }
  /** GET /RunPlans?sessionId=&carId= */
  getAllRunPlansForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunPlans', { sessionId, carId }, parametersToInclude);
  }
  /** GET /RunPlans?sessionId= */
  getAllRunPlansForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunPlans', { sessionId }, parametersToInclude);
  }
  /** GET /RunPlans?carId= */
  getAllRunPlansForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('RunPlans', { carId }, parametersToInclude);
  }
  /** POST /RunPlans: the created RunPlan, all properties populated */
  addRunPlan(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('RunPlans', { sessionId, carId }, model);
  }
  /** PUT /RunPlans/{id} */
  updateRunPlan(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('RunPlans', id, model);
  }
  /** DELETE /RunPlans/{id} */
  deleteRunPlan(id: string): Promise<ClientResult<null>> {
    return this.remove('RunPlans', id);
  }
  /** GET /PlannedLaps/{id} */
  getPlannedLapById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('PlannedLaps', id, parametersToInclude);
  }
  /** GET /PlannedLaps?plannedRunId= */
  getAllPlannedLapsForPlannedRun(plannedRunId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('PlannedLaps', { plannedRunId }, parametersToInclude);
  }
  /** POST /PlannedLaps: the created PlannedLap, all properties populated */
  addPlannedLap(plannedRunId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('PlannedLaps', { plannedRunId }, model);
  }
  /** PUT /PlannedLaps/{id} */
  updatePlannedLap(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('PlannedLaps', id, model);
  }
  /** DELETE /PlannedLaps/{id} */
  deletePlannedLap(id: string): Promise<ClientResult<null>> {
    return this.remove('PlannedLaps', id);
  }
  /** GET /LapMarkers/{id} */
  getLapMarkerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapMarkers', id, parametersToInclude);
  }
  /** GET /LapMarkers?lapId= */
  getAllLapMarkersForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapMarkers', { lapId }, parametersToInclude);
  }
  /** POST /LapMarkers: the created LapMarker, all properties populated */
  addLapMarker(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapMarkers', { lapId }, model);
  }
  /** PUT /LapMarkers/{id} */
  updateLapMarker(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapMarkers', id, model);
  }
  /** DELETE /LapMarkers/{id} */
  deleteLapMarker(id: string): Promise<ClientResult<null>> {
    return this.remove('LapMarkers', id);
  }
  /** GET /LapTrackStatusMarkers/{id} */
  getLapTrackStatusMarkerById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('LapTrackStatusMarkers', id, parametersToInclude);
  }
  /** GET /LapTrackStatusMarkers?lapId= */
  getAllLapTrackStatusMarkersForLap(lapId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('LapTrackStatusMarkers', { lapId }, parametersToInclude);
  }
  /** POST /LapTrackStatusMarkers: the created LapTrackStatusMarker, all properties populated */
  addLapTrackStatusMarker(lapId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('LapTrackStatusMarkers', { lapId }, model);
  }
  /** PUT /LapTrackStatusMarkers/{id} */
  updateLapTrackStatusMarker(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('LapTrackStatusMarkers', id, model);
  }
  /** DELETE /LapTrackStatusMarkers/{id} */
  deleteLapTrackStatusMarker(id: string): Promise<ClientResult<null>> {
    return this.remove('LapTrackStatusMarkers', id);
  }
  /** GET /SessionObjectIssues/{id} */
  getSessionObjectIssueById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionObjectIssues', id, parametersToInclude);
  }
  /** GET /SessionObjectIssues?sessionId=&carId= */
  getAllSessionObjectIssuesForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectIssues', { sessionId, carId }, parametersToInclude);
  }
  /** GET /SessionObjectIssues?sessionId= */
  getAllSessionObjectIssuesForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectIssues', { sessionId }, parametersToInclude);
  }
  /** GET /SessionObjectIssues?carId= */
  getAllSessionObjectIssuesForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectIssues', { carId }, parametersToInclude);
  }
  /** POST /SessionObjectIssues: the created SessionObjectIssue, all properties populated */
  addSessionObjectIssue(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionObjectIssues', { sessionId, carId }, model);
  }
  /** PUT /SessionObjectIssues/{id} */
  updateSessionObjectIssue(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionObjectIssues', id, model);
  }
  /** DELETE /SessionObjectIssues/{id} */
  deleteSessionObjectIssue(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionObjectIssues', id);
  }
  /** GET /SessionObjectJobs/{id} */
  getSessionObjectJobById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('SessionObjectJobs', id, parametersToInclude);
  }
  /** GET /SessionObjectJobs?sessionId=&carId= */
  getAllSessionObjectJobsForSessionCar(sessionId: string, carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectJobs', { sessionId, carId }, parametersToInclude);
  }
  /** GET /SessionObjectJobs?sessionId= */
  getAllSessionObjectJobsForSession(sessionId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectJobs', { sessionId }, parametersToInclude);
  }
  /** GET /SessionObjectJobs?carId= */
  getAllSessionObjectJobsForCar(carId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('SessionObjectJobs', { carId }, parametersToInclude);
  }
  /** POST /SessionObjectJobs: the created SessionObjectJob, all properties populated */
  addSessionObjectJob(sessionId: string, carId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('SessionObjectJobs', { sessionId, carId }, model);
  }
  /** PUT /SessionObjectJobs/{id} */
  updateSessionObjectJob(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('SessionObjectJobs', id, model);
  }
  /** DELETE /SessionObjectJobs/{id} */
  deleteSessionObjectJob(id: string): Promise<ClientResult<null>> {
    return this.remove('SessionObjectJobs', id);
  }
  /** GET /JobListTemplateItems/{id} */
  getJobListTemplateItemById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('JobListTemplateItems', id, parametersToInclude);
  }
  /** GET /JobListTemplateItems?jobListTemplateId= */
  getAllJobListTemplateItemsForJobListTemplate(jobListTemplateId: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('JobListTemplateItems', { jobListTemplateId }, parametersToInclude);
  }
  /** POST /JobListTemplateItems: the created JobListTemplateItem, all properties populated */
  addJobListTemplateItem(jobListTemplateId: string, model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('JobListTemplateItems', { jobListTemplateId }, model);
  }
  /** PUT /JobListTemplateItems/{id} */
  updateJobListTemplateItem(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('JobListTemplateItems', id, model);
  }
  /** DELETE /JobListTemplateItems/{id} */
  deleteJobListTemplateItem(id: string): Promise<ClientResult<null>> {
    return this.remove('JobListTemplateItems', id);
  }
  /** GET /Users/{id} */
  getUserById(id: string, parametersToInclude?: Include): Promise<ClientResult<EntityJson>> {
    return this.getOne('Users', id, parametersToInclude);
  }
  /** GET /Users */
  getAllUsers(parametersToInclude?: Include): Promise<ClientResult<EntityJson[]>> {
    return this.getMany('Users', {}, parametersToInclude);
  }
  /** POST /Users: the created User, all properties populated */
  addUser(model: CreateModel = {}): Promise<ClientResult<EntityJson>> {
    return this.add('Users', {}, model);
  }
  /** PUT /Users/{id} */
  updateUser(id: string, model: UpdateModel): Promise<ClientResult<EntityJson>> {
    return this.update('Users', id, model);
  }
  /** DELETE /Users/{id} */
  deleteUser(id: string): Promise<ClientResult<null>> {
    return this.remove('Users', id);
  }
}
